python3 - "$TT_TMP/n.jsonl" <<'P'
import json, sys
out = []
for i, line in enumerate(open('../../samples/frames.jsonl')):
    d = json.loads(line)
    if i % 5 == 0 and 'frame_metrics' in d:
        fm = dict(d['frame_metrics'])
        for k in ('TOTAL_DURATION', 'DRAW_DURATION'):
            fm[k] += 30000000
        d['end_ns'] += 30000000
        d['frame_metrics'] = fm
    out.append(json.dumps(d))
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
P
tracetool diff --format json --fail-on 'scene.jank=+324.99999%' ../../samples/frames.jsonl "$TT_TMP/n.jsonl" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
for s in d["scenes"]:
    if s["scene"].endswith("FeedActivity"):
        print("jank_pct", s["jank_pct"])
for t in d["tripped"]:
    print("tripped", t["gate"], t["value"])
print("exit", d["exit"])'
