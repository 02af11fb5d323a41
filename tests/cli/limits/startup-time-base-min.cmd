cd "$TT_TMP" && printf '{"kind":"first_method","ts_ms":180}\n{"kind":"time_base","ts_ms":1,"base_ms":-9223372036854775808}\n' > tb.jsonl && tracetool analyze -o x.db tb.jsonl
