tracetool samples --format json msg-split.jsonl
