tracetool startup --format csv startup/stackkey-comma.jsonl
