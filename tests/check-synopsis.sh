#!/bin/sh
# git's t0450 idea: every long option that `tracetool CMD -h` lists is documented in
# man/tracetool-CMD.1 and vice versa. Run from tests/data (the golden-test cwd).
man=../../man
st=0
for page in "$man"/tracetool-*.1; do
    cmd=$(basename "$page" .1); cmd=${cmd#tracetool-}
    tracetool "$cmd" -h > /tmp/syn.$$ 2>&1 || { echo "$cmd: -h failed"; st=1; continue; }
    grep -o -- '--[a-z][a-z0-9-]*' /tmp/syn.$$ | sort -u > /tmp/syn-h.$$
    # a RECIPES section shows other programs' command lines (scripts, CI files): not checked
    awk '/^\.SH/ { r = /RECIPES/ } !r' "$page" | sed 's/\\-/-/g' |
        grep -o -- '--[a-z][a-z0-9-]*' | sort -u > /tmp/syn-m.$$
    # an option has one entry in OPTIONS (a second one drifts from the first) and one line
    # in -h
    dup=$(awk 'p && /^\.B/ { print $2 } { p = /^\.TP/ }' "$page" | sed 's/\\-/-/g; s/"//g' |
          grep -- '^--' | sort | uniq -d)
    [ -n "$dup" ] && { echo "$cmd: options with two man page entries: $dup"; st=1; }
    dup=$(grep -o -- '^ *--[a-z][a-z0-9-]*' /tmp/syn.$$ | sort | uniq -d)
    [ -n "$dup" ] && { echo "$cmd: options listed twice by -h: $dup"; st=1; }
    if ! cmp -s /tmp/syn-h.$$ /tmp/syn-m.$$; then
        echo "$cmd: options differ between -h (<) and the man page (>):"
        diff /tmp/syn-h.$$ /tmp/syn-m.$$ | grep '^[<>]'
        st=1
    else
        echo "$cmd: ok"
    fi
done
rm -f /tmp/syn.$$ /tmp/syn-h.$$ /tmp/syn-m.$$
exit $st
