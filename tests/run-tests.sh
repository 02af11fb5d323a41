#!/bin/sh
# Runs the unit test binaries and the CLI golden tests of one build directory; writes
# BUILD/results.txt ("passed failed") and prints "N passed, N failed".
# The unit binaries run JOBS at a time (default: the number of cores) while the CLI test
# shards run; the output is printed in the usual order afterwards.
build=${1:-build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "$build"/tests/check_*; do [ -x "$t" ] && echo "$t"; done |
    xargs -r -P "$jobs" -I{} sh -c '"$1" > "$2/$(basename "$1").log" 2>&1; echo $? > "$2/$(basename "$1").rc"' sh {} "$tmp" &
unit=$!
sh tests/run-cli-tests.sh "$build" > "$tmp/cli.log" 2>&1
echo $? > "$tmp/cli.rc"
wait $unit
for t in "$build"/tests/check_*; do
    [ -x "$t" ] || continue
    out=$(cat "$tmp/$(basename "$t").log" 2>/dev/null)
    rc=$(cat "$tmp/$(basename "$t").rc" 2>/dev/null || echo 1)
    echo "$out" | grep -E '^[0-9]+%: Checks' | sed "s|^|$(basename "$t"): |"
    echo "$out" | grep -E ':[EF]:' | head -20
    line=$(echo "$out" | grep -E '^[0-9]+%: Checks' | tail -1)
    n=$(echo "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
    f=$(echo "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
    e=$(echo "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
    if [ -z "$n" ]; then
        echo "$(basename "$t"): no Check summary (exit $rc)"
        echo "$out" | tail -5
        failed=$((failed + 1))
        continue
    fi
    bad=$((f + e))
    if [ $rc -ne 0 ] && [ $bad -eq 0 ]; then bad=1; fi
    passed=$((passed + n - f - e))
    failed=$((failed + bad))
done
cli=$(cat "$tmp/cli.log")
crc=$(cat "$tmp/cli.rc")
echo "$cli" | grep -v '^ok ' | grep .
cp=$(echo "$cli" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
cf=$(echo "$cli" | sed -n 's/^cli: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
[ -n "$cp" ] || { cp=0; cf=1; }
[ $crc -ne 0 ] && [ "$cf" = 0 ] && cf=1
passed=$((passed + cp))
failed=$((failed + cf))
echo "$passed $failed" > "$build/results.txt"
echo "$build: $passed passed, $failed failed"
[ $failed -eq 0 ]
