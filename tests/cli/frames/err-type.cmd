tracetool frames frames-bad-type.jsonl
