tracetool startup startup/bad-missing.jsonl
