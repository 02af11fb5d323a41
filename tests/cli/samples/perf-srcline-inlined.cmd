tracetool analyze -o "$TT_TMP/s.db" perf-srcline-inlined.txt >/dev/null && tracetool query --format csv "$TT_TMP/s.db" "select name, file, line from stack_frame order by id"
