tracetool frames --format json --window-ms 200 frames-spec72.jsonl frames-120hz.jsonl
