tracetool report --format jsonl -m report-mapping.txt --proguard report-proguard.txt ../../samples/reports.jsonl
