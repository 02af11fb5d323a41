tracetool startup --matrix-compat --format csv startup/warm.jsonl
