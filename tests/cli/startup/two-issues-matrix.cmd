tracetool startup --matrix-compat startup/two-issues.jsonl
