tracetool report --format json --group ../../samples/reports.jsonl report-bad-json.jsonl; tracetool report --format json report-bad-json.jsonl | sed -n "s/.*\(\"count\":\)/\1/p"
