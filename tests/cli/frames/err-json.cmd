tracetool frames frames-bad-json.jsonl
