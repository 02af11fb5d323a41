tracetool export --format folded --trace 1 ../../samples/samples.jsonl
