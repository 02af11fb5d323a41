tracetool frames --format jsonl frames-spec72.jsonl
