tracetool samples --format json --no-msg-split msg-split.jsonl
