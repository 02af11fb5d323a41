tracetool startup startup/two-issues.jsonl
