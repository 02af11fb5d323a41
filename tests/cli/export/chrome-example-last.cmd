tracetool export --format chrome --max-gap 20ms --slice-end last slices-example.jsonl
