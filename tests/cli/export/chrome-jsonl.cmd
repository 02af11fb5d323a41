tracetool export --format chrome ../../samples/samples.jsonl
