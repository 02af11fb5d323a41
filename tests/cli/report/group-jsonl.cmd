tracetool report --group --format jsonl ../../samples/reports.jsonl
