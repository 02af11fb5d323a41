tracetool startup startup/bad-kind-first.jsonl
