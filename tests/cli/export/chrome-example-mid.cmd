tracetool export --format chrome --max-gap 20ms --slice-end mid slices-example.jsonl
