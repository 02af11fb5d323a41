tracetool symbolicate --kind kscrash --format jsonl ios-lines.jsonl 2>/dev/null | python3 -c "import json,sys; [print(json.loads(l)[\"report\"][\"id\"]) for l in sys.stdin]"
