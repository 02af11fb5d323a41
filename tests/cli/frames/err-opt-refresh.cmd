tracetool frames --refresh-hz 0 frames-spec72.jsonl
