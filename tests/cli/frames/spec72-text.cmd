tracetool frames frames-spec72.jsonl
