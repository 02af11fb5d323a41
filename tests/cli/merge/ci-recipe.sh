#!/bin/sh
# The GitHub Actions and Spark recipes of tracetool-merge(1) (FLEET RECIPES), taken from the
# man page as printed: eight shards of five files, so three shards are empty and one holds only
# a btrace sampling-mapping (its sampling file is in another shard, which finds it beside it).
# Every shard's step exits 0, the shards without a trace write no database, and the merge of
# what was written is one analyze of all the files. A shard with an unreadable input still
# fails.
set -u
t=$TT_TMP/merge-ci-recipe
rm -rf "$t" && mkdir -p "$t/traces"
s=$(pwd)/../../samples
man=$(pwd)/../../man/tracetool-merge.1
cp $s/methodMapping.txt "$t/"
cp $s/beat.bin $s/reports.jsonl $s/frames.jsonl $s/sampling.bin $s/sampling-mapping.bin "$t/traces/"
unroff() { sed -e 's/\\-/-/g' -e 's/\\e/\\/g' -e "s/\\\\(aq/'/g"; }
# the run step of the analyze job, one shard number in $shard
sed -n '/^\.SS GitHub Actions/,/^\.EE/p' "$man" | sed -n '/- run: |/,/- uses: actions\/upload/p' |
    sed '1d;$d' | unroff | sed 's/\${{ matrix.shard }}/$shard/g' > "$t/step.sh"
# the Spark wrapper
sed -n '/^# tt\\-part.sh/,/^paths = /p' "$man" | sed '1d;$d' | unroff | sed 's/^#//' > "$t/tt-part.sh"
[ -s "$t/step.sh" ] && [ -s "$t/tt-part.sh" ] || { echo "recipes not found in the man page"; exit 1; }
cd "$t" || exit 1
for shard in 0 1 2 3 4 5 6 7; do
    shard=$shard sh -e step.sh > /dev/null 2> err
    echo "shard $shard [$(tr '\n' ' ' < shard.txt)]: exit $?, database $([ -e shard-$shard.db ] && echo written || echo none)"
    sed "s|$t/||g" err
done
tracetool merge -o fleet.db shard-*.db > /dev/null || echo "merge failed"
tracetool analyze -o all.db -m methodMapping.txt traces/* > /dev/null 2>&1 || echo "analyze failed"
python3 "$OLDPWD/../cli/merge/dbcanon.py" all.db fleet.db
# Spark: one partition of two traces, an empty one, one holding only a mapping
mkdir -p shared/parts
sed 's|/shared/|'"$t"'/shared/|' tt-part.sh > part.sh
printf 'traces/beat.bin\ntraces/frames.jsonl\n' | sh part.sh 2> /dev/null | sed "s|$t/shared/parts/part-.*\.db|PART.db|"
echo "partition of two traces: exit $?"
out=$(sh part.sh < /dev/null 2> /dev/null); echo "empty partition: exit $?, printed [$out]"
out=$(echo traces/sampling-mapping.bin | sh part.sh 2> /dev/null); echo "mapping only: exit $?, printed [$out]"
echo "databases written: $(ls shared/parts | wc -l)"
# an input that cannot be read still fails the shard
echo traces/missing.bin > shard.txt
sed 's|^ *ls traces.*||' step.sh > step-bad.sh
shard=9 sh -e step-bad.sh > /dev/null 2> err; echo "unreadable input: exit $?"
sed "s|$t/||g" err
exit 0
