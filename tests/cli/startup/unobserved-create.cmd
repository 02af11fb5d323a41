tracetool startup --format json startup/unobserved-create.jsonl
