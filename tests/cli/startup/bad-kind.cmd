tracetool startup startup/bad-kind.jsonl
