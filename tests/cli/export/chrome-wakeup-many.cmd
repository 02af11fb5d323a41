cd "$TT_TMP" && gen_btrace --variant wakeups:400 w.bin m.bin && tracetool export --format chrome -o w.json w.bin m.bin && tracetool analyze -o w.db w.bin m.bin > /dev/null 2>&1 && python3 -c "
# export(1): an arrow's s lies in the deepest X slice on the waker's thread holding the
# waker's sample time (the wakeup table's waker_ts), at the middle of that slice or of its
# part before the woken slice ends; f at the middle of the woken slice's part after s
import json, sqlite3
from decimal import Decimal
ev = json.load(open('w.json'), parse_float=Decimal)['traceEvents']
ns = lambda us: int(us * 1000)
s = {e['id']: e for e in ev if e['ph'] == 's'}
f = {e['id']: e for e in ev if e['ph'] == 'f'}
x = {}
for e in ev:
    if e['ph'] == 'X':
        x.setdefault(e['tid'], []).append((ns(e['ts']), ns(e['ts']) + ns(e['dur'])))
db = sqlite3.connect('w.db')
wakes = db.execute('select wt.tid, w.waker_ts, t.tid, sl.ts, sl.ts + sl.dur from wakeup w '
                   'join thread wt on wt.utid = w.waker_utid join slice sl on sl.id = w.wakee_slice_id '
                   'join thread t on t.utid = sl.utid').fetchall()
bad = 0
for i in s:
    st, ft = ns(s[i]['ts']), ns(f[i]['ts'])
    # the wait this arrow ends in: woken slices on f's thread holding it, woken by s's thread
    w = {(t, lo, hi) for wt, t, tid, lo, hi in wakes
         if tid == f[i]['tid'] and wt == s[i]['tid'] and lo < ft < hi}
    if len({t for t, lo, hi in w}) != 1 or len({(lo, hi) for t, lo, hi in w}) != 1:
        bad += 1
        continue
    t, lo, hi = w.pop()
    a, b = max((y for y in x[s[i]['tid']] if y[0] <= t < y[1]), key=lambda y: (y[0], -y[1]))
    top = min(b, hi)
    want_s = a + (top - a) // 2
    want_f = max(want_s, lo) + (hi - max(want_s, lo)) // 2
    bad += st != want_s or ft != want_f or not (a < st < top and st < ft < hi)
print('arrows', len(s), len(f), 'waits', len({(tid, lo) for wt, t, tid, lo, hi in wakes}),
      'misplaced', bad)"
