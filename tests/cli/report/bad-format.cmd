tracetool report --format xml ../../samples/reports.jsonl
