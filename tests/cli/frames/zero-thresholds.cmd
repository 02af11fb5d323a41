tracetool frames --slow-ms 0 --frozen-ms 0 --levels 0,0,0,0 frames-short.jsonl; tracetool frames --slow-ms 5 --frozen-ms 10 --format csv frames-short.jsonl | cut -d, -f1,2,18-21
