#!/bin/sh
# Golden CLI tests (STYLE.md section 8): tests/cli/<area>/<case>.cmd is one command line run
# in tests/data/ with `tracetool` on PATH; .out is the exact stdout, optional .err the exact
# stderr and .rc the exit code (default 0). UPDATE_GOLDEN=1 rewrites the expectations.
# The EXAMPLES of every man page are run too (from the repository root): each must exit 0
# or 1 and must not crash.
build=${1:-build}
top=$(pwd)
bin="$top/$build"
[ -x "$bin/tracetool" ] || { echo "cli: $bin/tracetool missing"; echo "cli: 0 passed, 1 failed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
ln -s "$bin/tracetool" "$tmp/bin/tracetool"
[ -d "$bin/gen" ] && for g in "$bin"/gen/*; do [ -x "$g" ] && ln -sf "$g" "$tmp/bin/"; done
PATH="$tmp/bin:$PATH"
export PATH TT_TMP="$tmp"
passed=0
failed=0
for cmdf in $(find tests/cli -name '*.cmd' | sort); do
    base=${cmdf%.cmd}
    name=${base#tests/cli/}
    exp_rc=0
    [ -f "$base.rc" ] && exp_rc=$(cat "$base.rc")
    (cd tests/data && sh -c "$(cat "$top/$cmdf")" > "$tmp/out" 2> "$tmp/err" < /dev/null)
    rc=$?
    if [ -n "${UPDATE_GOLDEN:-}" ] && { [ $rc -gt 128 ] || grep -q 'runtime error\|AddressSanitizer' "$tmp/err"; }; then
        echo "FAIL $name: crashed (exit $rc); expectations not updated"; head -5 "$tmp/err"
        failed=$((failed + 1))
        continue
    fi
    if [ -n "${UPDATE_GOLDEN:-}" ]; then
        cp "$tmp/out" "$base.out"
        if [ -s "$tmp/err" ] || [ -f "$base.err" ]; then cp "$tmp/err" "$base.err"; fi
        if [ $rc -ne 0 ]; then echo $rc > "$base.rc"; else rm -f "$base.rc"; fi
        echo "ok $name (updated)"
        passed=$((passed + 1))
        continue
    fi
    ok=1
    [ "$rc" = "$exp_rc" ] || { echo "FAIL $name: exit $rc, expected $exp_rc"; ok=0; }
    if ! cmp -s "$tmp/out" "$base.out" 2>/dev/null; then
        echo "FAIL $name: stdout differs"; diff "$base.out" "$tmp/out" | head -20; ok=0
    fi
    if [ -f "$base.err" ] && ! cmp -s "$tmp/err" "$base.err"; then
        echo "FAIL $name: stderr differs"; diff "$base.err" "$tmp/err" | head -10; ok=0
    fi
    if grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$tmp/err"; then
        echo "FAIL $name: sanitizer report"; head -20 "$tmp/err"; ok=0
    fi
    if [ $ok = 1 ]; then echo "ok $name"; passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
# man page EXAMPLES
for man in man/*.1; do
    awk '/^\.SH EXAMPLES/{e=1;next} /^\.SH/{e=0} e' "$man" | sed -n 's/^\\\&\$ //p; s/^\$ //p' |
        sed 's/\\-/-/g; s/\\e/\\/g' > "$tmp/ex"
    n=0
    while IFS= read -r line; do
        n=$((n + 1))
        sh -c "$line" > "$tmp/out" 2> "$tmp/err" < /dev/null
        rc=$?
        if [ $rc -gt 1 ] || grep -q 'runtime error\|AddressSanitizer' "$tmp/err"; then
            echo "FAIL $man example $n: exit $rc: $line"; head -5 "$tmp/err"
            failed=$((failed + 1))
        else
            echo "ok $man example $n"
            passed=$((passed + 1))
        fi
    done < "$tmp/ex"
done
echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]
