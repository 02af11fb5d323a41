#!/bin/sh
# Headless Chromium checks of the flame graphs and the HTML report (spec/visual.md 11):
# the #tt-selftest line of each picture must equal tests/browser/<case>.selftest, a report
# must log no Content Security Policy refusal and no uncaught exception, and every
# screenshot must be a PNG of the picture's size whose pixels are not all equal
# (tests/check_png.py). Screenshots stay in $OUT (default build/browser) for people to look
# at. `make check-visual`; CI runs it after `make check`. Chromium is installed with apt-get
# when running as root; where it cannot be, the checks are skipped with a notice (exit 0).
# Usage: tests/browser.sh [BUILD]
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
tt="$top/$build/tracetool"
OUT=${OUT:-$top/build/browser}
[ -x "$tt" ] || { echo "browser: $tt missing (run make first)"; exit 1; }
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "browser: installing chromium" >&2
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 apt-get update -qq >/dev/null 2>&1 || true
    timeout 900 apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 || true
    chromium=$(command -v chromium || true)
fi
if [ -z "$chromium" ]; then
    echo "browser: notice: chromium is not installed and cannot be installed here: browser checks skipped"
    exit 0
fi
rm -rf "$OUT"
mkdir -p "$OUT"
flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
--disable-background-networking --disable-component-update --disable-sync \
--virtual-time-budget=5000"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok browser/$1"; }
bad() { fail=$((fail + 1)); echo "FAIL browser/$1: $2"; }

# dump DOM of FILE#tt-selftest into $OUT/NAME.dom, its log into $OUT/NAME.log
dump() { # name file
    prof=$(mktemp -d)
    # shellcheck disable=SC2086
    timeout 120 "$chromium" $flags --user-data-dir="$prof" --enable-logging=stderr --v=0 \
        --dump-dom "file://$2#tt-selftest" > "$OUT/$1.dom" 2> "$OUT/$1.log"
    rm -rf "$prof"
}
shot() { # name file width height
    prof=$(mktemp -d)
    # shellcheck disable=SC2086
    timeout 120 "$chromium" $flags --user-data-dir="$prof" --screenshot="$OUT/$1.png" \
        --window-size="$3,$4" "file://$2" > /dev/null 2>&1
    rm -rf "$prof"
    if python3 "$top/tests/check_png.py" "$OUT/$1.png" "$3" "$4"; then ok "$1 screenshot"
    else bad "$1 screenshot" "not a $3x$4 PNG with content"; fi
}
svg_case() { # name, then tracetool arguments
    name=$1
    shift
    (cd "$top" && "$tt" flamegraph -o "$OUT/$name.svg" "$@") 2>/dev/null || { bad "$name" "flamegraph failed"; return; }
    dump "$name" "$OUT/$name.svg"
    got=$(sed -n 's/.*<desc class="tt-selftest">\([^<]*\)<\/desc>.*/\1/p' "$OUT/$name.dom")
    want=$(cat "$top/tests/browser/$name.selftest")
    if [ "$got" = "$want" ]; then ok "$name selftest"; else bad "$name selftest" "got '$got', expected '$want'"; fi
    w=$(sed -n 's/.*<svg [^>]*width="\([0-9]*\)".*/\1/p' "$OUT/$name.svg" | head -1)
    h=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$OUT/$name.svg" | head -1)
    [ "$h" -gt 4000 ] && h=4000
    shot "$name" "$OUT/$name.svg" "$w" "$h"
}
svg_case spec34 --minwidth=4% --root=none tests/data/flame-spec34.folded
svg_case btrace samples/sampling.bin
svg_case icicle --icicle --reverse samples/perf-fib.txt.gz
svg_case chart-matrix --chart --source issue:1 -m tests/data/report-mapping.txt \
    tests/data/flame-chart-report.jsonl
svg_case colors-module --colors module samples/sampling.bin

# a report: self-test lines, no CSP refusal, no uncaught exception, a screenshot
report_case() { # name, then the html arguments
    name=$1
    shift
    "$tt" html -o "$OUT/$name.html" "$@" 2>/dev/null || { bad "$name" "html failed"; return; }
    dump "$name" "$OUT/$name.html"
    got=$(sed -n '/<pre class="tt-selftest">/,/<\/pre>/p' "$OUT/$name.dom" | sed 's/<[^>]*>//g' | grep .)
    want=$(cat "$top/tests/browser/$name.selftest")
    if [ "$got" = "$want" ]; then ok "$name selftest"; else bad "$name selftest" "got '$got', expected '$want'"; fi
    if grep -q 'Content Security Policy\|Uncaught' "$OUT/$name.log"; then
        bad "$name log" "$(grep -m1 'Content Security Policy\|Uncaught' "$OUT/$name.log")"
    else
        ok "$name log"
    fi
    shot "$name" "$OUT/$name.html" 1280 4000
}
db="$OUT/report.db"
(cd "$top" && SOURCE_DATE_EPOCH=1700000000 "$tt" analyze -o "$db" -m samples/methodMapping.txt \
    samples/beat.bin samples/reports.jsonl samples/frames.jsonl samples/sampling.bin) \
    >/dev/null 2>&1 || bad report "analyze failed"
report_case report "$db"
# the sections of issue 14: startup waterfall, histogram, issue trees; and diff mode
(cd "$top" && SOURCE_DATE_EPOCH=1700000000 "$tt" analyze -o "$OUT/sections.db" \
    -m samples/methodMapping.txt samples/beat.bin samples/reports.jsonl samples/frames.jsonl \
    samples/startup-events.jsonl samples/sampling.bin) >/dev/null 2>&1 || bad sections "analyze failed"
report_case sections "$OUT/sections.db"
# the launch strip chart and fps over time (a compacted gap, several scenes, several traces)
(cd "$top" && SOURCE_DATE_EPOCH=1700000000 "$tt" analyze -o "$OUT/charts.db" \
    tests/data/html-launches.txt tests/data/html-launches.log tests/data/html-fps-scenes.jsonl \
    tests/data/frames-soak.txt samples/sampling.bin) >/dev/null 2>&1 || bad charts "analyze failed"
report_case charts "$OUT/charts.db"
(cd "$top" && "$tt" analyze -o "$OUT/base.db" tests/data/flame-diff-base.folded && \
    "$tt" analyze -o "$OUT/new.db" tests/data/flame-diff-new.folded) >/dev/null 2>&1 ||
    bad diff-report "analyze failed"
report_case diff-report "$OUT/base.db" "$OUT/new.db"
# diff mode: the Summary as the browser built it has base, new and Δ, a Δ on the samples row
sum=$(python3 "$top/tests/html_section.py" "$OUT/diff-report.dom" summary 2>/dev/null)
if printf '%s\n' "$sum" | grep -qx 'item | base | new | Δ' &&
    printf '%s\n' "$sum" | grep -q '^samples | [0-9]* | [0-9]* | [-+0-9]'; then
    ok "diff-report summary"
else
    bad "diff-report summary" "no base / new / Δ columns in the Summary"
fi
echo "browser: screenshots in $OUT"
echo "browser: $pass passed, $fail failed"
[ "$fail" = 0 ]
