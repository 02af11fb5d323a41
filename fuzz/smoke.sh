#!/bin/sh
# Fuzz smoke run (part of `make check`): every target in BUILD runs its seed corpus
# fuzz/corpus/<name>/ plus FUZZ_RUNS (default 3000) mutations from FUZZ_SEED (default 1, so a CI
# run is repeatable; set another seed to explore). JOBS targets at a time
# (default: the number of cores). A crash, leak or sanitizer report fails the target.
# Writes BUILD/results.txt ("passed failed").
runs=${FUZZ_RUNS:-3000}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
one() { # bin tmp: runs one target, writes tmp/NAME/result
    bin=$1 tmp=$2
    name=$(basename "$bin"); name=${name#fuzz_}
    seeds=fuzz/corpus/$name
    d=$tmp/$name
    mkdir -p "$d/new"
    if [ -d "$seeds" ]; then set -- "$seeds"; else set --; fi
    if "$bin" -seed="${FUZZ_SEED:-1}" -runs="$runs" -max_total_time=60 -max_len=65536 -timeout=10 -rss_limit_mb=1024 \
        -artifact_prefix="$d/" "$d/new" "$@" > "$d/log" 2>&1; then
        echo "ok fuzz $name ($(ls "$d/new" | wc -l) new inputs)" > "$d/result"
    else
        {
            echo "FAIL fuzz $name"
            grep -E 'ERROR|runtime error|SUMMARY|Test unit written' "$d/log" | head -10
            for a in "$d"/crash-* "$d"/leak-* "$d"/timeout-* "$d"/oom-*; do
                [ -f "$a" ] && mkdir -p fuzz/artifacts && cp "$a" "fuzz/artifacts/$name-$(basename "$a")" &&
                    echo "  kept fuzz/artifacts/$name-$(basename "$a")"
            done
        } > "$d/result"
    fi
}
if [ "${1:-}" = --one ]; then
    one "$2" "$3"
    exit 0
fi
build=${1:-build-fuzz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for bin in "$build"/fuzz_*; do [ -x "$bin" ] && echo "$bin"; done |
    xargs -r -P "$jobs" -I{} sh "$0" --one {} "$tmp"
passed=0
failed=0
for bin in "$build"/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin"); name=${name#fuzz_}
    if [ -f "$tmp/$name/result" ]; then cat "$tmp/$name/result"; else echo "FAIL fuzz $name: no result"; fi
    if grep -q '^ok ' "$tmp/$name/result" 2>/dev/null; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
[ $((passed + failed)) -gt 0 ] || { echo "fuzz: no targets in $build"; failed=1; }
echo "$passed $failed" > "$build/results.txt"
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
