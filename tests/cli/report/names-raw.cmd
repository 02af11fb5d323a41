tracetool report --names raw --format jsonl -m report-mapping.txt ../../samples/reports.jsonl | head -1
