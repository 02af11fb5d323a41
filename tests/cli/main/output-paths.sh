#!/bin/sh
# Output paths (cli.md "Outputs"): -o /dev/stdout writes through the descriptor the shell
# opened (an append keeps what the file held; a pipe works) and a database is never written
# there; an input given as -o is refused before anything is replaced; a loop of links and an
# empty name are errors.
set -u
t=$TT_TMP/op
mkdir -p "$t"
S=../../samples
tracetool analyze -o "$t/a.db" $S/stacks.folded > /dev/null
for c in "export --format folded $t/a.db" "flamegraph $t/a.db" "html $t/a.db"; do
    n=${c%% *}
    echo "CI log" > "$t/job.log"
    tracetool $c -o /dev/stdout >> "$t/job.log"
    echo "$n -o /dev/stdout >> job.log: exit $?; first line: $(head -n 1 "$t/job.log"); $(wc -l < "$t/job.log" | tr -d ' ') lines"
    echo "$n -o /dev/fd/1 | wc -c: $(tracetool $c -o /dev/fd/1 | wc -c | tr -d ' ')"
done
# a reader that stops early (more than a pipe holds): as for standard output, no error
(tracetool export --format chrome -o /dev/stdout $S/perf-fib.txt.gz 2> "$t/err"
 echo $? > "$t/rc") | head -c 10 > /dev/null
echo "export -o /dev/stdout | head -c 10: exit $(cat "$t/rc") $(cat "$t/err")"
tracetool analyze -o /dev/stdout $S/stacks.folded >> "$t/job.log" 2>&1
echo "analyze -o /dev/stdout: exit $?"
tail -n 1 "$t/job.log"
tracetool merge -o /dev/stdout "$t/a.db" 2>&1
echo "merge -o /dev/stdout: exit $?"
# an input given as the output
cp $S/stacks.folded "$t/in.folded"
cp "$t/a.db" "$t/b.db"
for c in "analyze -o $t/in.folded $t/in.folded" "flamegraph -o $t/b.db $t/b.db" \
         "html -o $t/b.db $t/b.db" "export --format folded -o $t/in.folded $t/in.folded" \
         "diff --format html -o $t/b.db $t/a.db $t/b.db"; do
    out=$(tracetool $c 2>&1 > /dev/null)
    echo "${c%% *}: exit $?: $out" | sed "s|$TT_TMP|TMP|g"
done
cmp -s $S/stacks.folded "$t/in.folded" && cmp -s "$t/a.db" "$t/b.db" && echo "inputs unchanged"
ls "$t" | grep '\.tmp-'
# links that go round, an empty name
ln -s la "$t/lb"
ln -s lb "$t/la"
tracetool flamegraph -o "$t/la" "$t/a.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
[ -L "$t/la" ] && [ -L "$t/lb" ] && echo "loop: links unchanged"
tracetool flamegraph -o '' "$t/a.db" 2>&1
tracetool analyze -o '' $S/stacks.folded 2>&1
exit 0
