tracetool frames --model matrix-b --matrix-b-path frame-metrics frames-spec72.jsonl
