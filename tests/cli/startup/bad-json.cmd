tracetool startup startup/bad-json.jsonl
