tracetool frames frames-scene-newline.jsonl
