tracetool export --format chrome --max-gap 20ms --slice-end next slices-example.jsonl
