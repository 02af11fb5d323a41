# no SQL argument and standard input a terminal (script(1) gives one): exit 2 at once with a message, not a silent wait; piped SQL still runs
script -qec true /dev/null > /dev/null 2>&1 || { echo "script (util-linux) with a pseudo-terminal missing" >&2; exit 77; }
tracetool analyze -o "$TT_TMP/q.db" -m an-map.txt an-v1.bin > /dev/null 2>&1; { timeout 20 script -qec "tracetool query '$TT_TMP/q.db'" /dev/null; echo "exit $?"; } | tr -d '\r'; echo "select 1 as one" | tracetool query "$TT_TMP/q.db"; echo "exit $?"
