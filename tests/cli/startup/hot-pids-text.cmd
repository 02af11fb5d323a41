tracetool startup startup/hot-pids.jsonl
