tracetool samples --max-gap 3parsecs slices-example.jsonl
