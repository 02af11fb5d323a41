tracetool report --names full -m report-mapping.txt ../../samples/reports.jsonl | sed -n 10,25p
