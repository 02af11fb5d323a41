tracetool frames frames-spec72.jsonl ../../samples/reports.jsonl
