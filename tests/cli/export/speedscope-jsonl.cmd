tracetool export --format speedscope ../../samples/samples.jsonl
