tracetool samples --max-gap 20ms --top 3 interval-points-wall.jsonl | sed -n '/^== thread/,/^$/p'
