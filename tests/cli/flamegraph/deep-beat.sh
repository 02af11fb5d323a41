#!/bin/sh
# A method-beat call chain 5000 deep (analyze stores all of it): the database reader keeps
# every slice (call chains have no depth limit, art-trace.md 5.2), so html, flamegraph on the
# database and on the raw buffer (a temporary database) draw all 5000 levels without a
# warning; export reads the buffer itself. A slice out of order is still an error naming the
# user's database.
set -u
t=$TT_TMP/deep
mkdir -p "$t"
cd "$t" || exit 1
w=$(python3 -c "
N = 5000
w = ['I:D:0'] + ['I:%d:%d' % (i % 3000 + 1, i // 100) for i in range(N)]
w += ['O:%d:%d' % (i % 3000 + 1, 200 + (N - i) // 100) for i in range(N - 1, -1, -1)] + ['O:D:400']
print(' '.join(w))")
gen_beat encode --format bin -o deep.bin $w && gen_beat mapping -n 3100 -o map.txt || exit 1
tracetool analyze -o t.db -m map.txt deep.bin > /dev/null; echo "analyze exit $?"
tracetool flamegraph --format tsv -o f.tsv t.db; echo "flamegraph DB exit $?"
echo "frames drawn: $(($(wc -l < f.tsv) - 1)); deepest: $(tail -n 1 f.tsv)"
tracetool html -o r.html t.db; echo "html exit $?"
echo "truncated frame in the html: $(grep -c 'deeper frames truncated' r.html)"
tracetool flamegraph --format tsv -m map.txt -o g.tsv deep.bin 2> e; echo "flamegraph raw exit $?"
cat e; echo "same graph: $(cmp -s f.tsv g.tsv && echo yes || echo no)"
tracetool export --format speedscope -m map.txt -o s.json deep.bin; echo "export raw exit $?"
# a slice whose parent_id is not the open slice one level up stays an error
python3 -c "
import sqlite3
c = sqlite3.connect('t.db')
c.execute('UPDATE slice SET parent_id = 10 WHERE id = 100')
c.commit()"
tracetool flamegraph -o /dev/null t.db; echo "disordered DB exit $?"
