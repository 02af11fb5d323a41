tracetool startup startup/bad-type.jsonl
