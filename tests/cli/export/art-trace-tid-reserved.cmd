printf '{"kind":"meta","format":"tracetool-samples","version":1,"pid":1}\n{"kind":"thread","tid":1,"name":"one"}\n{"kind":"thread","tid":40000,"name":"big"}\n{"kind":"thread","tid":-5,"name":"none"}\n{"kind":"thread","tid":2,"name":"two"}\n{"kind":"thread","tid":3,"name":"three"}\n{"ts_ns":1000,"tid":40000,"frames":["x"]}\n{"ts_ns":1000,"tid":-5,"frames":["w"]}\n{"ts_ns":1000,"tid":1,"frames":["y"]}\n{"ts_ns":1000,"tid":2,"frames":["z"]}\n{"ts_ns":1000,"tid":3,"frames":["v"]}\n' > "$TT_TMP/t.jsonl"; tracetool export --format art-trace -o "$TT_TMP/t.trace" "$TT_TMP/t.jsonl" && python3 -c "
import sys
t = open(sys.argv[1], 'rb').read().split(b'*methods')[0].decode()
print(t.split('*threads\n')[1], end='')" "$TT_TMP/t.trace"
