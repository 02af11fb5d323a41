tracetool frames --drop-levels scaled --model matrix-c frames-spec72.jsonl
