tracetool frames frames-bad-negative.jsonl
