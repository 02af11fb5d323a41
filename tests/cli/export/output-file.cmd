tracetool export --format chrome -o "$TT_TMP/x.json" slices-example.jsonl && python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(len(d[\"traceEvents\"]))" "$TT_TMP/x.json"
