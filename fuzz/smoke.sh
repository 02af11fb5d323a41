#!/bin/sh
# Fuzz smoke run (part of `make check`): every target in BUILD runs its seed corpus
# fuzz/corpus/<name>/ plus FUZZ_RUNS (default 3000) mutations. A crash, leak or sanitizer
# report fails the target. Writes BUILD/results.txt ("passed failed").
build=${1:-build-fuzz}
runs=${FUZZ_RUNS:-3000}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for bin in "$build"/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin"); name=${name#fuzz_}
    seeds=fuzz/corpus/$name
    mkdir -p "$tmp/$name"
    if [ -d "$seeds" ]; then set -- "$seeds"; else set --; fi
    if "$bin" -runs="$runs" -max_total_time=60 -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
        -artifact_prefix="$tmp/" "$tmp/$name" "$@" > "$tmp/log" 2>&1; then
        echo "ok fuzz $name ($(ls "$tmp/$name" | wc -l) new inputs)"
        passed=$((passed + 1))
    else
        echo "FAIL fuzz $name"
        grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$tmp/log" | head -10
        for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-*; do
            [ -f "$a" ] && mkdir -p fuzz/artifacts && cp "$a" "fuzz/artifacts/$name-$(basename "$a")" &&
                echo "  kept fuzz/artifacts/$name-$(basename "$a")"
        done
        failed=$((failed + 1))
    fi
done
[ $((passed + failed)) -gt 0 ] || { echo "fuzz: no targets in $build"; failed=1; }
echo "$passed $failed" > "$build/results.txt"
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
