tracetool startup --format csv startup/rotation.jsonl
