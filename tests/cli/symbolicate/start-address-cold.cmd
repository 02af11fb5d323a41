mkdir -p "$TT_TMP/cold" && cd "$TT_TMP/cold" && gcc -O2 -g -o cold "$OLDPWD/symedge/cold.c" && h=$(nm cold | awk '$3 == "work" { print $1 }') && c=$(nm cold | awk '$3 == "work.cold" { print $1 }') && [ -n "$c" ] && tracetool symbolicate -e cold --format jsonl $(printf '0x%x 0x%x 0x%x 0x%x' 0x$h $((0x$h + 4)) 0x$c $((0x$c + 4))) | python3 -c "
import json, sys
names = {int(sys.argv[1], 16): 'work', int(sys.argv[2], 16): 'work.cold'}
for l in sys.stdin:
    o = json.loads(l)
    a, f = int(o['Address'], 16), o['Symbol'][-1]
    s = int(f['StartAddress'], 16)
    at = [k for k in names if k <= a and a - k < 8][0]
    print('%s+%d: %s, StartAddress %s' % (names[at], a - at, f['FunctionName'], names.get(s, hex(s))))
" $h $c
