cd "$TT_TMP" && gen_btrace --variant wakeups:400 w.bin m.bin && tracetool export --format chrome -o w.json w.bin m.bin && python3 -c "
import json
ev = json.load(open('w.json'))['traceEvents']
s = {e['id']: e for e in ev if e['ph'] == 's'}
f = {e['id']: e for e in ev if e['ph'] == 'f'}
x = [e for e in ev if e['ph'] == 'X']
def inside(e):
    return any(y['tid'] == e['tid'] and y['ts'] < e['ts'] < y['ts'] + y['dur'] for y in x)
print('arrows', len(s), len(f), 'ordered', all(s[i]['ts'] < f[i]['ts'] for i in s),
      'inside', all(inside(s[i]) and inside(f[i]) for i in s))"
