tracetool analyze --progress -o "$TT_TMP/p.db" ../../samples/perf-fib.txt.gz 2>&1 >/dev/null | tr "\r" "\n" | sed "s/\x1b\[K//" | grep . | sort -u
