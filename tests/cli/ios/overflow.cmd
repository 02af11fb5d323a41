tracetool report ios-overflow.jsonl
