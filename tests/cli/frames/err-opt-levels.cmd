tracetool frames --levels 3,9,2,42 frames-spec72.jsonl
