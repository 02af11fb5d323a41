tracetool startup --matrix-compat startup/unsorted.jsonl
