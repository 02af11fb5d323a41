#!/bin/sh
# JSON call trees are flat node arrays with parent links (tracetool-samples(1),
# tracetool-report(1), tracetool-beat(1), tracetool-art(1)), so a 600-frame stack parses with
# Python's json (a nested tree of 600 frames is past its recursion limit) and the parent
# links give back the tree: every node's parent comes before it and is one of its open
# ancestors (pre-order), depth is the parent's depth + 1 (Matrix depth: more across a gap),
# and the root-to-node paths weighted by self samples are the input stacks.
set -u
t=$TT_TMP/flat
mkdir -p "$t"
cd "$t" || exit 1
cat > check.py <<'PY'
import json, sys
what, key, name = sys.argv[1], sys.argv[2], sys.argv[3]
docs = [json.loads(l) for l in sys.stdin if l.strip()] if what.endswith('jsonl') else [json.load(sys.stdin)]
for doc in docs:
    trees = [doc[key]] if key in doc else [th[key] for th in doc['threads']]
    for nodes in trees:
        open_ = []  # positions of the open ancestors
        paths = []
        for i, n in enumerate(nodes):
            assert 'children' not in n, 'nested'
            p = n['parent']
            while open_ and open_[-1] != p:
                open_.pop()
            assert (p is None) == (not open_), (i, p)
            if p is None:
                paths.append([n[name]])
            else:
                assert p < i and n['depth'] > nodes[p]['depth'], (i, p)
                paths.append(paths[p] + [n[name]])
            open_.append(i)
        if what == 'samples':
            for i, n in enumerate(nodes):
                if n['self_samples']:
                    print(';'.join(paths[i]), n['self_samples'])
        else:
            print('%s: %d nodes, deepest path %d frames, depth %d' % (what, len(nodes),
                  max(len(p) for p in paths), max(n['depth'] for n in nodes)))
PY
python3 -c "
f = ['main'] + ['com.example.F%d.m()' % i for i in range(600)]
print(';'.join(f) + ' 7')
print(';'.join(f[:300] + ['com.example.G%d.m()' % i for i in range(300)]) + ' 5')
print(';'.join(f[:2]) + ' 3')" > d600.folded
tracetool samples --format json d600.folded | python3 check.py samples nodes name > paths
sort paths | cmp - "$(sort d600.folded > want && echo want)" && echo "samples --format json: paths = input stacks ($(wc -l < paths) stacks, 601 frames deep)"
tracetool samples --inverted --format json d600.folded | python3 check.py samples-inverted nodes_inverted name
python3 -c "
import json
stack = ''.join('%d,%d,1,%d\n' % (i, i + 1, 6000 - 5 * i) for i in range(600))
print(json.dumps({'detail': 'NORMAL', 'cost': 6000, 'scene': 's', 'stack': stack, 'stackKey': '1|',
                  'tag': 'Trace_EvilMethod', 'process': 'p', 'time': 1795411801312}))" > r600.jsonl
tracetool report --format jsonl r600.jsonl 2>/dev/null | python3 check.py report-jsonl nodes id
tracetool report --format json r600.jsonl 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(' '.join(sorted(d)) if isinstance(d, dict) else len(d))" > /dev/null && echo "report --format json: parses"
w=$(python3 -c "
N = 600
print(' '.join(['I:D:0'] + ['I:%d:%d' % (i + 1, i // 10) for i in range(N)] +
               ['O:%d:%d' % (i + 1, 200 + (N - i) // 10) for i in range(N - 1, -1, -1)] + ['O:D:400']))")
gen_beat encode --format bin -o deep.bin $w && gen_beat mapping -n 700 -o map.txt || exit 1
tracetool beat --trim 0 --format json -m map.txt deep.bin | python3 check.py beat nodes id
python3 -c "
N = 600
print('format legacy 3 dual\nstart-us 1000000000\npid 1234\nthread 1234 main')
for i in range(N):
    print('method 0x%x com.example.F%d m ()V F.java' % (4 * i, i))
for i in range(N):
    print('ev 1234 0x%x enter %d %d' % (4 * i, i, 2 * i))
for i in range(N - 1, -1, -1):
    print('ev 1234 0x%x exit %d %d' % (4 * i, 2 * N - i, 4 * N - 2 * i))" > deep-art.txt
gen_art deep-art.txt deep.trace || exit 1
tracetool art --tree --max-nodes 1000 --format json deep.trace | python3 check.py art nodes method
tracetool art --tree --max-nodes 1000 --format jsonl deep.trace | python3 check.py art-jsonl nodes method
