tracetool frames frames-bad-first.jsonl
