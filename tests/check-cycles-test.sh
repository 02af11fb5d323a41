#!/bin/sh
# Self-test of scripts/check-cycles.sh (run by `make cycles`): two files of one module that
# call each other fail, the same pair listed in cycles.allow passes, a one-way call passes.
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts" "$tmp/libtrace" "$tmp/b/libtrace"
cp scripts/check-cycles.sh "$tmp/scripts/"
printf 'int b(void);\nint a(void) { return b(); }\n' > "$tmp/libtrace/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' > "$tmp/libtrace/b.c"
printf 'int a(void);\nint c(void) { return a(); }\n' > "$tmp/libtrace/c.c"
for f in a b c; do "$cc" -c "$tmp/libtrace/$f.c" -o "$tmp/b/libtrace/$f.o" || exit 2; done
fail=0
( cd "$tmp" && sh scripts/check-cycles.sh b ) > "$tmp/out1" 2>&1 && fail=1
grep -q 'cycle: libtrace/a.c <-> libtrace/b.c (libtrace/a.c uses b; libtrace/b.c uses a)' \
    "$tmp/out1" || fail=1
grep -q 'libtrace/c.c' "$tmp/out1" && fail=1
echo 'libtrace/a.c libtrace/b.c # test' > "$tmp/scripts/cycles.allow"
( cd "$tmp" && sh scripts/check-cycles.sh b ) > "$tmp/out2" 2>&1 || fail=1
grep -q '^check-cycles: allowed: libtrace/a.c <-> libtrace/b.c' "$tmp/out2" || fail=1
if [ $fail != 0 ]; then
    echo "check-cycles-test: FAILED"; cat "$tmp/out1" "$tmp/out2"; exit 1
fi
echo "check-cycles-test: ok"
