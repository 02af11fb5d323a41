#!/bin/sh
# Runs the unit test binaries and the CLI golden tests of one build directory; writes
# BUILD/results.txt ("passed failed") and prints "N passed, N failed".
# The unit binaries run JOBS at a time (default: the number of cores) while the CLI test
# shards run; the output is printed in the usual order afterwards.
build=${1:-build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
passed=0
failed=0
# Check's default per-test timeout is 4 s: a loaded machine running the ASan build beside the
# CLI shards can pass that on a correct test (check_stack's vec_reserve_huge did in CI). A
# hang is still caught, later; a test case's own tcase_set_timeout still wins.
CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}
export CK_DEFAULT_TIMEOUT
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each binary runs twice: each test in a process of its own (Check's default), then all of
# them in one process (CK_FORK=no), as tracetool reads many files in one run: a test must
# not depend on, or break, the process-wide state (libraries' included) another one leaves.
for t in "$build"/tests/check_*; do [ -x "$t" ] && echo "$t"; done |
    xargs -r -P "$jobs" -I{} sh -c 'b=$(basename "$1"); "$1" > "$2/$b.log" 2>&1; echo $? > "$2/$b.rc"
        CK_FORK=no "$1" > "$2/$b.one.log" 2>&1; echo $? > "$2/$b.one.rc"' sh {} "$tmp" &
unit=$!
sh tests/run-cli-tests.sh "$build" > "$tmp/cli.log" 2>&1
echo $? > "$tmp/cli.rc"
wait $unit
for log in $(for t in "$build"/tests/check_*; do [ -x "$t" ] && echo "$(basename "$t")" "$(basename "$t").one"; done); do
    t=$log
    out=$(cat "$tmp/$log.log" 2>/dev/null)
    rc=$(cat "$tmp/$log.rc" 2>/dev/null || echo 1)
    case $log in *.one) t="${log%.one} (CK_FORK=no)" ;; esac
    echo "$out" | grep -E '^[0-9]+%: Checks' | sed "s|^|$t: |"
    echo "$out" | grep -E ':[EF]:' | head -20
    line=$(echo "$out" | grep -E '^[0-9]+%: Checks' | tail -1)
    n=$(echo "$line" | sed -n 's/.*Checks: \([0-9]*\).*/\1/p')
    f=$(echo "$line" | sed -n 's/.*Failures: \([0-9]*\).*/\1/p')
    e=$(echo "$line" | sed -n 's/.*Errors: \([0-9]*\).*/\1/p')
    if [ -z "$n" ]; then
        echo "$t: no Check summary (exit $rc)"
        echo "$out" | tail -5
        failed=$((failed + 1))
        continue
    fi
    bad=$((f + e))
    if [ $rc -ne 0 ] && [ $bad -eq 0 ]; then bad=1; fi
    passed=$((passed + n - f - e))
    failed=$((failed + bad))
done
# adds the "<name>: N passed, N failed" summary of a suite's output ($1) and exit code ($2)
add_suite() {
    echo "$1" | grep -v '^ok ' | grep .
    line=$(echo "$1" | grep -E '^[a-z]+: [0-9]+ passed, [0-9]+ failed$' | tail -1)
    p=$(echo "$line" | sed -n 's/^[a-z]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$line" | sed -n 's/^[a-z]*: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    [ -n "$p" ] || { p=0; f=1; }
    [ "$2" -ne 0 ] && [ "$f" = 0 ] && f=1
    passed=$((passed + p))
    failed=$((failed + f))
}
add_suite "$(cat "$tmp/cli.log")" "$(cat "$tmp/cli.rc")"
# checkers over the outputs of every command (python3, scripts/deps.sh)
# check-oracle-art.py compares `art` with dmtracedump, or prints a skip notice without it
for chk in tests/check-json.py tests/check-weights.py tests/check-oracle-art.py; do
    [ -f "$chk" ] || continue
    out=$(python3 "$chk" "$build" 2>&1)
    add_suite "$out" $?
done
echo "$passed $failed" > "$build/results.txt"
echo "$build: $passed passed, $failed failed"
[ $failed -eq 0 ]
