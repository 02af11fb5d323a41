tracetool samples samples-ctrl-names.jsonl
