tracetool flamegraph --script=none --colors mono --weight wall --max-frames 30 ../../samples/samples.jsonl
