tracetool startup startup/nosuch.jsonl
