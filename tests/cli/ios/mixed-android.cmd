tracetool report ../../samples/reports.jsonl ios-crash-kscrash.json; echo "rc=$?"; tracetool report ios-crash-kscrash.json ../../samples/reports.jsonl; echo "rc=$?"
