tracetool samples samples-bad.jsonl
