tracetool report --format json nosuch.jsonl ../../samples/reports.jsonl
