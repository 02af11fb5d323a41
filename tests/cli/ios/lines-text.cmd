tracetool report ios-lines.jsonl
