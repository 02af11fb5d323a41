tracetool export slices-example.jsonl
