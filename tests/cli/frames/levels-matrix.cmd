tracetool frames --format csv frames-120hz.jsonl
