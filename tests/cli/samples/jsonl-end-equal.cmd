tracetool samples --max-gap 1ms jsonl-end-equal.jsonl | sed -n '/^slices:/,/^$/p'
