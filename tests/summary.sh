#!/bin/sh
# Adds up the results files of the plain, sanitizer and fuzz runs; prints the final line.
p=0; f=0
for r in "$@"; do
    if [ -f "$r" ]; then
        read -r a b < "$r"
        p=$((p + a)); f=$((f + b))
    else
        echo "missing results: $r"
        f=$((f + 1))
    fi
done
echo "$p passed, $f failed"
[ $f -eq 0 ]
