tracetool startup ../../samples/reports.jsonl
