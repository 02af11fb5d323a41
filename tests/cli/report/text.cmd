tracetool report -m report-mapping.txt ../../samples/reports.jsonl
