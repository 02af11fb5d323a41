#!/bin/sh
# Golden CLI tests (STYLE.md section 8): tests/cli/<area>/<case>.cmd is one command line run
# in tests/data/ with `tracetool` on PATH; .out is the exact stdout, optional .err the exact
# stderr and .rc the exit code (default 0). UPDATE_GOLDEN=1 rewrites the expectations.
# The EXAMPLES of every man page are run too (from the repository root): each must exit 0
# or 1 and must not crash; so is every command of README.md's "Using it" section (exit 0).
# The cases are split into JOBS shards (default: the number of cores) run at the same time,
# each with its own TT_TMP; /tmp/ in examples becomes the run's own directory, so passes
# running side by side (plain and sanitizer) do not share files.
build=${1:-build}
top=$(pwd)
bin="$top/$build"
[ -x "$bin/tracetool" ] || { echo "cli: $bin/tracetool missing"; echo "cli: 0 passed, 1 failed"; exit 1; }
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
tmp=$(mktemp -d)
trap 'for x in "$tmp"/shard*.dir; do [ -f "$x" ] && rm -rf "$(cat "$x")" "$(cat "$x").out" "$(cat "$x").err"; done; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
ln -s "$bin/tracetool" "$tmp/bin/tracetool"
[ -d "$bin/gen" ] && for g in "$bin"/gen/*; do [ -x "$g" ] && ln -sf "$g" "$tmp/bin/"; done
PATH="$tmp/bin:$PATH"
xmllint=$(command -v xmllint || true)
[ -n "$xmllint" ] || echo "cli: notice: xmllint (libxml2-utils) missing: SVG outputs are not parsed" >&2
export PATH

# one golden case; prints "ok NAME" or FAIL lines, counts into $tmp/$shard.count
run_case() { # cmdf dir
    cmdf=$1 d=$2
    # every case starts from an empty TT_TMP: a file an earlier case of the shard left there
    # must not decide this one's result
    rm -rf "$d" && mkdir "$d" || return 1
    base=${cmdf%.cmd}
    name=${base#tests/cli/}
    exp_rc=0
    [ -f "$base.rc" ] && exp_rc=$(cat "$base.rc")
    (cd tests/data && TT_TMP="$d" sh -c "$(cat "$top/$cmdf")" > "$d.out" 2> "$d.err" < /dev/null)
    rc=$?
    # exit 77 (automake's convention): an optional dependency is missing; the first line of
    # stderr says which, and the case counts as passed
    if [ $rc = 77 ] && [ "$exp_rc" != 77 ]; then
        echo "SKIP $name: $(head -1 "$d.err")"
        return 0
    fi
    if [ -n "${UPDATE_GOLDEN:-}" ] && { [ $rc -gt 128 ] || grep -q 'runtime error\|AddressSanitizer' "$d.err"; }; then
        echo "FAIL $name: crashed (exit $rc); expectations not updated"; head -5 "$d.err"
        return 1
    fi
    if [ -n "${UPDATE_GOLDEN:-}" ]; then
        cp "$d.out" "$base.out"
        if [ -s "$d.err" ] || [ -f "$base.err" ]; then cp "$d.err" "$base.err"; fi
        if [ $rc -ne 0 ]; then echo $rc > "$base.rc"; else rm -f "$base.rc"; fi
        echo "ok $name (updated)"
        return 0
    fi
    ok=1
    [ "$rc" = "$exp_rc" ] || { echo "FAIL $name: exit $rc, expected $exp_rc"; ok=0; }
    if ! cmp -s "$d.out" "$base.out" 2>/dev/null; then
        echo "FAIL $name: stdout differs"; diff "$base.out" "$d.out" | head -20; ok=0
    fi
    if [ -f "$base.err" ] && ! cmp -s "$d.err" "$base.err"; then
        echo "FAIL $name: stderr differs"; diff "$base.err" "$d.err" | head -10; ok=0
    fi
    # every SVG a case prints must parse (visual.md 11); xmllint is libxml2-utils
    if [ -n "$xmllint" ] && head -c 200 "$d.out" | grep -q '<svg\|<?xml'; then
        xmllint --noout --nonet "$d.out" 2> "$d.xml" || { echo "FAIL $name: SVG does not parse"; head -5 "$d.xml"; ok=0; }
    fi
    # CSV rows end with LF (tracetool(1) OUTPUT): a CR only inside a quoted field. Keep the
    # quotes and CRs alone; pairing the quotes left to right removes the quoted fields.
    if grep -q -- '--format csv\|--format=csv' "$top/$cmdf" &&
        tr -cd '"\r' < "$d.out" | tr '\r' R | sed 's/"R*"//g' | grep -q R; then
        echo "FAIL $name: CSV output holds a CR outside a quoted field"; ok=0
    fi
    if grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$d.err"; then
        echo "FAIL $name: sanitizer report"; head -20 "$d.err"; ok=0
    fi
    [ $ok = 1 ] && echo "ok $name"
    [ $ok = 1 ]
}

# one documented example line, run from the repository root; max_rc: highest good exit code
run_example() { # what line max_rc dir [cwd]
    line=$(printf '%s\n' "$2" | sed "s|/tmp/|$4/|g")
    (cd "${5:-.}" && TMPDIR=$4 sh -c "$line" > "$4.out" 2> "$4.err" < /dev/null)
    rc=$?
    if [ $rc -gt "$3" ] || grep -q 'runtime error\|AddressSanitizer' "$4.err"; then
        echo "FAIL $1: exit $rc: $2"; head -5 "$4.err"
        return 1
    fi
    echo "ok $1"
}

# man page EXAMPLES (exit 0 or 1) and README.md "Using it" commands (exit 0), in order
examples() { # dir
    mkdir -p "$1"
    p=0 f=0
    for man in man/*.1; do
        awk '/^\.SH EXAMPLES/{e=1;next} /^\.SH/{e=0} e' "$man" | sed -n 's/^\\\&\$ //p; s/^\$ //p' |
            sed 's/\\-/-/g; s/\\e/\\/g' > "$1/ex"
        n=0
        while IFS= read -r line; do
            n=$((n + 1))
            if run_example "$man example $n" "$line" 1 "$1"; then p=$((p + 1)); else f=$((f + 1)); fi
        done < "$1/ex"
    done
    # README commands write trace.db and t.json: run them in a scratch copy of the root
    mkdir -p "$1/root"
    ln -s "$top/samples" "$1/root/samples"
    sh tests/readme-commands.sh README.md > "$1/ex"
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        if run_example "README.md command $n" "$line" 0 "$1" "$1/root"; then p=$((p + 1)); else f=$((f + 1)); fi
    done < "$1/ex"
    echo "$p $f" > "$1.count"
}

find tests/cli -name '*.cmd' | sort > "$tmp/cases"
shard() { # index
    # a directory like the one the tests were written with (paths of the same length)
    d=$(mktemp -d) || exit 1
    echo "$d" > "$tmp/shard$1.dir"
    p=0 f=0 i=0
    while IFS= read -r cmdf; do
        i=$((i + 1))
        [ $((i % jobs)) = "$1" ] || continue
        if run_case "$cmdf" "$d"; then p=$((p + 1)); else f=$((f + 1)); fi
    done < "$tmp/cases"
    echo "$p $f" > "$tmp/shard$1.count"
    rm -rf "$d" "$d.out" "$d.err"
}
s=0
while [ $s -lt "$jobs" ]; do
    shard $s > "$tmp/shard$s.log" 2>&1 &
    s=$((s + 1))
done
examples "$tmp/ex" > "$tmp/ex.log" 2>&1 &
wait
passed=0
failed=0
for c in "$tmp"/shard*.count "$tmp/ex.count"; do
    [ -f "$c" ] || { echo "cli: a shard did not finish (${c##*/})"; failed=$((failed + 1)); continue; }
    read -r a b < "$c"
    passed=$((passed + a)); failed=$((failed + b))
done
s=0
while [ $s -lt "$jobs" ]; do cat "$tmp/shard$s.log"; s=$((s + 1)); done
cat "$tmp/ex.log"
echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]
