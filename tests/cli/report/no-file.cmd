tracetool report nosuch.jsonl
