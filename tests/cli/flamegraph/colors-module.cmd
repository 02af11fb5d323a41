tracetool flamegraph --script=none --colors module --max-frames 30 ../../samples/samples.jsonl
