tracetool export --format folded --weight wall --folded-root process ../../samples/samples.jsonl
