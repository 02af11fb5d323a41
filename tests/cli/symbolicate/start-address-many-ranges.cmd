mkdir -p "$TT_TMP/rng" && cd "$TT_TMP/rng" && python3 "$OLDPWD/symedge/ranges.py" x 30000 50 && gcc -nostdlib -static -o x x.s && at() { nm x | awk -v f="$1" '$3 == f { print $1 }'; } && h=$(at _start) e=$(at hot_end) o=$(at other) c=$(at cold) && tracetool symbolicate -e x --format jsonl $(printf '0x%x ' 0x$h $((0x$h + 15000)) $((0x$e - 1)) 0x$e 0x$o 0x$c $((0x$c + 25)) $((0x$c + 50))) $(i=2; while [ $i -le 60 ]; do printf '0x%x ' $((0x$e - i)); i=$((i + 1)); done) | python3 -c "
import collections, json, sys
names = {int(a, 16): n for a, n in zip(sys.argv[1:], ['work', 'hot_end', 'other', 'cold'])}
def at(a):
    k = max(k for k in names if k <= a)
    return '%s+%d' % (names[k], a - k)
more = collections.Counter()
for i, l in enumerate(sys.stdin):
    o = json.loads(l)
    f = o['Symbol'][-1]
    s = f['StartAddress']
    r = '%s, StartAddress %s' % (f['FunctionName'] or '??', at(int(s, 16)) if s else '-')
    if i < 8:
        print('%s: %s' % (at(int(o['Address'], 16)), r))
    else:
        more[r] += 1
for r, n in sorted(more.items()):
    print('%d more addresses before hot_end: %s' % (n, r))
" $h $e $o $c
