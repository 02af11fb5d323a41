tracetool frames --format csv --jank-basis ui frames-spec72.jsonl
