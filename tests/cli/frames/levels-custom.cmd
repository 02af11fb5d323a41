tracetool frames --levels 2,5,10,20 --slow-ms 40 --frozen-ms 300 --jank-multiplier 1.5 frames-120hz.jsonl
