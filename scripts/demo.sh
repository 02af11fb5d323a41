#!/bin/sh
# `make demo`: runs tracetool on the inputs in samples/ and prints readable results.
# Run from the repository root after `make` (the Makefile's demo target does both).
set -e
tt=./tracetool
s=samples

echo "== tracetool beat: the sample method-beat slice decoded with the app's mapping"
echo "\$ tracetool beat -m $s/methodMapping.txt --end-ms 6600 $s/beat.bin"
$tt beat -m $s/methodMapping.txt --end-ms 6600 $s/beat.bin
echo
echo "== the fields Matrix's evil-method report would carry for this slice (1200 ms dispatch)"
echo "\$ tracetool beat --format matrix --cost 1200 --end-ms 6600 $s/beat.bin"
$tt beat --format matrix --cost 1200 --end-ms 6600 $s/beat.bin
echo
echo "== the same slice through an obfuscated mapping, retraced with R8's mapping.txt"
echo "\$ tracetool beat -m $s/methodMapping-obfuscated.txt --proguard $s/mapping.txt --end-ms 6600 $s/beat.bin"
$tt beat -m $s/methodMapping-obfuscated.txt --proguard $s/mapping.txt --end-ms 6600 $s/beat.bin |
    sed -n '1,12p'
echo "   ..."
