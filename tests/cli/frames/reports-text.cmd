tracetool frames ../../samples/reports.jsonl
