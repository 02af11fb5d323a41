cd "$TT_TMP" && mkdir a b && gen_btrace --variant wakeups:3 a/sampling.bin a/sampling-mapping.bin && gen_btrace --variant wakeups:5 b/sampling.bin b/sampling-mapping.bin && tracetool analyze -o a.db a/sampling.bin >/dev/null 2>&1 && tracetool analyze -o b.db b/sampling.bin >/dev/null 2>&1 && tracetool merge -o w.db a.db b.db >/dev/null && for o in "" "--chrome-events be" "--relative-time"; do echo "== export --format chrome $o (two traces: two parts, both pid 4411)"; tracetool export --format chrome $o -o w.json w.db && python3 -c "
import json
ev = json.load(open('w.json'))['traceEvents']
sl, open_ = {}, {}
for e in ev:
    k = (e.get('pid'), e.get('tid'))
    if e['ph'] == 'X':
        sl.setdefault(k, []).append((e['ts'], e['ts'] + e['dur']))
    elif e['ph'] == 'B':
        open_.setdefault(k, []).append(e['ts'])
    elif e['ph'] == 'E':
        sl.setdefault(k, []).append((open_[k].pop(), e['ts']))
part = {e['pid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
s = [e for e in ev if e['ph'] == 's']
f = {}
for e in ev:
    if e['ph'] == 'f':
        f.setdefault(e['id'], []).append(e)
def inside(e):
    return any(a < e['ts'] < b for a, b in sl.get((e['pid'], e['tid']), []))
ids = [e['id'] for e in s]
pairs = [(e, f[e['id']][0]) for e in s if len(f.get(e['id'], [])) == 1]
print('arrows', len(s), 'ids unique', len(set(ids)) == len(ids), 'each s has one f', len(pairs) == len(s) == len(f))
print('same part', all(a['pid'] == b['pid'] for a, b in pairs), 'ordered', all(a['ts'] < b['ts'] for a, b in pairs),
      'inside slices of their part and thread', all(inside(a) and inside(b) for a, b in pairs))
for p in sorted(part):
    print(' ', part[p], 'pid', p, 'arrows', sum(1 for a, b in pairs if a['pid'] == p),
          'waker tids', sorted({a['tid'] for a, b in pairs if a['pid'] == p}), 'woken tids', sorted({b['tid'] for a, b in pairs if a['pid'] == p}))"; done
