tracetool startup --matrix-compat --no-ui-process --cold-ms 300 startup/quirk-small.jsonl
