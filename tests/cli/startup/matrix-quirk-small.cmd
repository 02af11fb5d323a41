tracetool startup --matrix-compat --format jsonl startup/quirk-small.jsonl
