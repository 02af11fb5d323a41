#!/bin/sh
# File-level call cycles inside a module (libtrace/, libsym/, sqlite/, cli/): pairs of .c
# files of one module where each uses a symbol the other defines, found with nm on the
# objects of a build. A pair listed in scripts/cycles.allow ("dir/a.c dir/b.c", one pair a
# line, sorted, '#' comments) is reported but allowed; any other pair fails.
# Usage: sh scripts/check-cycles.sh [BUILD_DIR]   (`make cycles` builds the objects first)
build=${1:-build}
allow=$(dirname "$0")/cycles.allow
tmp=$(mktemp) && out=$(mktemp) && sum=$(mktemp) || exit 2
trap 'rm -f "$tmp" "$out" "$sum"' EXIT
for m in libtrace libsym sqlite cli; do
    for o in "$build/$m"/*.o; do
        [ -f "$o" ] || continue
        src=$m/$(basename "$o" .o).c
        [ -f "$src" ] || continue # a stale object of a removed source
        nm -P "$o" | awk -v f="$src" -v m="$m" '$2 == "U" { print m, "U", $1, f; next }
            $2 ~ /^[TDBRVWC]$/ { print m, "D", $1, f }'
    done
done >"$tmp"
[ -s "$tmp" ] || { echo "check-cycles: no objects in $build (run make first)"; exit 2; }
awk -v allowfile="$allow" -v sum="$sum" '
    BEGIN {
        while ((getline line < allowfile) > 0) {
            sub(/#.*/, "", line)
            if (split(line, w, " ") == 2) allowed[w[1] " " w[2]] = 1
        }
    }
    $2 == "D" { def[$1 SUBSEP $3] = $4; next }
    { use[NR] = $0 }
    END {
        for (i = 1; i <= NR; i++) {
            if (!(i in use)) continue
            split(use[i], u, " ")
            f = def[u[1] SUBSEP u[3]]
            if (f == "" || f == u[4]) continue
            key = u[4] " " f
            if (!(key in syms)) syms[key] = u[3]
            else if (index(" " syms[key] " ", " " u[3] " ") == 0) syms[key] = syms[key] " " u[3]
        }
        n = 0
        for (key in syms) {
            split(key, p, " ")
            if (p[1] >= p[2] || !((p[2] " " p[1]) in syms)) continue
            pair = p[1] " " p[2]
            line = sprintf("%s <-> %s (%s uses %s; %s uses %s)", p[1], p[2], p[1], syms[key],
                           p[2], syms[p[2] " " p[1]])
            if (pair in allowed) { print "check-cycles: allowed: " line; seen[pair] = 1; continue }
            print "check-cycles: cycle: " line
            n++
        }
        for (pair in allowed)
            if (!(pair in seen))
                print "check-cycles: not a cycle any more, drop it from cycles.allow: " pair > sum
        if (n) {
            print "check-cycles: " n " cycle(s); move the shared code into a file of its own " \
                  "(or list the pair in scripts/cycles.allow with the reason)" > sum
            exit 1
        }
        print "check-cycles: ok" > sum
    }' "$tmp" >"$out"
rc=$?
sort "$out"
cat "$sum"
exit $rc
