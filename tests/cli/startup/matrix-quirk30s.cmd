tracetool startup --matrix-compat --format jsonl startup/quirk30s.jsonl
