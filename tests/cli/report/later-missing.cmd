tracetool report --format json ../../samples/reports.jsonl nosuch.jsonl
