#!/bin/sh
# revsym 2: a caller frame is looked up at its return address - 1 whatever the other samples
# are (samples.md, symbolication.md 3.3): a sample whose caller is lib_entry's first byte
# keeps the same stack when another sample has that address as its leaf, and the database
# holds what symbolicate prints (symbolized_pc rows at S-1 for the caller, at S for the leaf);
# JSON-lines and perf script inputs; --jobs 1 and --jobs 2 write the same database.
set -u
sh ../sym/mkfixtures.sh "$TT_TMP/symfx" || exit 1
cd "$TT_TMP/symfx"
B=$(readelf -n libfx.so | sed -n 's/.*Build ID: *//p')
S=$((0x$(nm libfx.so | awk '/ lib_entry$/{print $1}')))
BASE=$((0x7f0000000000))
st=$(printf 0x%x $((BASE + S))); mid=$(printf 0x%x $((BASE + S + 4)))
hdr() {
    echo '{"kind":"meta","format":"tracetool-samples","version":1,"pid":1,"process":"app","clock":"boottime","interval_ns":1000000}'
    echo '{"kind":"thread","tid":1,"name":"main","is_main":true}'
    echo "{\"kind\":\"module\",\"name\":\"libfx.so\",\"build_id\":\"$B\",\"path\":\"/data/app/lib/libfx.so\",\"base\":\"0x7f0000000000\",\"size\":\"0x4000\"}"
}
a="{\"ts_ns\":2000000,\"tid\":1,\"frames\":[{\"addr\":\"$st\"},{\"addr\":\"$mid\"}]}"
b="{\"ts_ns\":3000000,\"tid\":1,\"frames\":[{\"addr\":\"$mid\"},{\"addr\":\"$st\"}]}"
{ hdr; echo "$a"; } > "$TT_TMP/one.jsonl"
{ hdr; echo "$a"; echo "$b"; } > "$TT_TMP/two.jsonl"
# perf script: the same two stacks (leaf first), the library mapped at MAP
map=$((0x7fa7574e5000))
pst=$(printf %x $((map + S))); pmid=$(printf %x $((map + S + 4)))
{
    printf 'app  9791/9791  74658.503569: PERF_RECORD_MMAP2 9791/9791: [0x%x(0x%x) @ 0 fe:00 1 1]: r-xp %s/libfx.so\n' "$map" $((0x4000)) "$TT_TMP/symfx"
    printf 'app  9791/9791  74658.505788:     500000 cpu-clock:ppp: \n\t    %s (%s/libfx.so)\n\t    %s (%s/libfx.so)\n\n' "$pmid" "$TT_TMP/symfx" "$pst" "$TT_TMP/symfx"
    printf 'app  9791/9791  74658.505789:     500000 cpu-clock:ppp: \n\t    %s (%s/libfx.so)\n\t    %s (%s/libfx.so)\n\n' "$pst" "$TT_TMP/symfx" "$pmid" "$TT_TMP/symfx"
} > "$TT_TMP/p.txt"
# the stack of one sample, root first; the caller of lib_entry+4 named by S-1 (never lib_entry)
stack() { # db ts
    tracetool query --format csv "$1" "WITH RECURSIVE c(id, parent_id, frame_id, depth) AS (SELECT cs.id, cs.parent_id, cs.frame_id, cs.depth FROM callsite cs JOIN sample s ON s.callsite_id = cs.id WHERE s.ts = $2 UNION ALL SELECT cs.id, cs.parent_id, cs.frame_id, cs.depth FROM callsite cs JOIN c ON cs.id = c.parent_id) SELECT group_concat(n, ' > ') AS stack FROM (SELECT CASE WHEN f.name = 'lib_entry' THEN f.name ELSE 'not lib_entry' END AS n FROM c JOIN stack_frame f ON f.id = c.frame_id ORDER BY c.depth)" | tail -1
}
pcs() { # db
    tracetool query --format csv "$1" "SELECT printf('S%+d', rel_pc - $S) FROM symbolized_pc ORDER BY rel_pc" | tail -n +2 | tr '\n' ' '
    echo
}
tracetool analyze -o "$TT_TMP/one.db" --symbols store "$TT_TMP/one.jsonl" > /dev/null 2>&1
tracetool analyze -o "$TT_TMP/two.db" --symbols store "$TT_TMP/two.jsonl" > /dev/null 2>&1
echo "jsonl, sample alone:         $(stack "$TT_TMP/one.db" 2000000)"
echo "jsonl, with the other:       $(stack "$TT_TMP/two.db" 2000000)"
echo "jsonl, the other:            $(stack "$TT_TMP/two.db" 3000000)"
echo "jsonl, looked up: $(pcs "$TT_TMP/two.db")"
tracetool analyze -o "$TT_TMP/p.db" -e libfx.so "$TT_TMP/p.txt" > /dev/null 2>&1
echo "perf, first sample:          $(stack "$TT_TMP/p.db" 74658505788000)"
echo "perf, second sample:         $(stack "$TT_TMP/p.db" 74658505789000)"
echo "perf, looked up: $(pcs "$TT_TMP/p.db")"
# symbolicate names the caller as the database does
c=$(tracetool symbolicate --kind perf -e libfx.so "$TT_TMP/p.txt" 2>/dev/null |
    awk -v a="$pst" 'f { print; exit } index($0, a) { f = 1 }')
case "$c" in *lib_entry*) echo "symbolicate: caller named lib_entry";; *) echo "symbolicate: caller not lib_entry";; esac
for j in 1 2; do
    tracetool analyze --jobs $j -o "$TT_TMP/j$j.db" --symbols store "$TT_TMP/two.jsonl" "$TT_TMP/p.txt" > /dev/null 2>&1
    tracetool query --write "$TT_TMP/j$j.db" "UPDATE trace SET imported_unix_ms = 0"
done
cmp -s "$TT_TMP/j1.db" "$TT_TMP/j2.db" && echo "--jobs 1 and 2: same database"
