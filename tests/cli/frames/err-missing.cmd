tracetool frames frames-bad-missing.jsonl
