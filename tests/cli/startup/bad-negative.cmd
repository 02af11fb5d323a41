tracetool startup startup/bad-negative.jsonl
