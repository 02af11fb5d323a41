tracetool frames --format json --window-ms 5000 ../../samples/frames.jsonl
