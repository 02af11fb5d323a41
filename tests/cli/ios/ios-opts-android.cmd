tracetool report --format folded ../../samples/reports.jsonl
