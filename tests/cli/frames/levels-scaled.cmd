tracetool frames --format csv --drop-levels scaled frames-120hz.jsonl
