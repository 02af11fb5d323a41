gzip -c slices-example.jsonl | tracetool samples --max-gap 20ms -
