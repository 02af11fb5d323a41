tracetool frames --model matrix-b ../../samples/reports.jsonl
