tracetool samples --max-gap 1ms interval-run-end.jsonl | sed -n '/^== thread/,/^$/p'
