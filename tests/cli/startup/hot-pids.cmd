tracetool startup --format csv startup/hot-pids.jsonl
