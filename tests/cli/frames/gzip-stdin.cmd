gzip -c ../../samples/frames.jsonl | tracetool frames --format csv -
