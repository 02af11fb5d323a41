tracetool samples --slice-end mid --mark-gaps ../../samples/samples.jsonl
