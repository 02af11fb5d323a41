tracetool report --format json --group nosuch.jsonl ../../samples/reports.jsonl; echo "exit $?"; tracetool report --format json --group ../../samples/reports.jsonl nosuch.jsonl
