printf 'worker 13651.405335: cpu-clock:ppp: \n\t 117a spin\n\t 891f5 start_thread\n\nmt 13651.438102: cpu-clock:ppp: \n\t 117a spin\n\t 2724a main\n\nother 13651.452910: cpu-clock:ppp: \n\t 117a spin\n\t 891f5 start_thread\n\nworker 13651.455250: cpu-clock:ppp: \n\t 117a spin\n\t 891f5 start_thread\n\n' > "$TT_TMP/p.txt"; printf '{"kind":"meta","format":"tracetool-samples","version":1,"pid":5}\n{"ts_ns":1000,"tid":-3,"frames":["a"]}\n{"ts_ns":1000,"tid":-4,"frames":["b"]}\n{"ts_ns":2000,"tid":-3,"frames":["a"]}\n' > "$TT_TMP/n.jsonl"; for f in p.txt n.jsonl; do tracetool export --format chrome "$TT_TMP/$f" | python3 -c "
import json, sys, collections
ev = json.load(sys.stdin)['traceEvents']
print('threads:', sorted((e['pid'], e['tid'], e['args']['name']) for e in ev if e.get('name') == 'thread_name'))
print('slices per track:', sorted(collections.Counter((e['pid'], e['tid']) for e in ev if e['ph'] == 'X').items()))"; done
