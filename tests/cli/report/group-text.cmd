tracetool report --group -m report-mapping.txt ../../samples/reports.jsonl ../../samples/reports.log
