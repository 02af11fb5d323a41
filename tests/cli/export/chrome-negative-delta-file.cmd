cp counter-backwards.jsonl "$TT_TMP/second.jsonl" && tracetool export --format chrome counter-backwards.jsonl "$TT_TMP/second.jsonl" 2>&1 > /dev/null | sed "s|$TT_TMP|TMP|g"
