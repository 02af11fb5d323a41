tracetool samples --symbols beat-v1.txt ../../samples/samples.jsonl
