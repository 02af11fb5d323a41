#!/bin/sh
# A debug file passed over is named in a warning with why (spec 4.3): another build's file
# under the module's .build-id path (-e and backtraces), a truncated or non-ELF file there,
# and a .gnu_debuglink target whose CRC differs; each file once.
set -u
sh ../sym/mkfixtures.sh "$TT_TMP/symfx" || exit 1
cd "$TT_TMP/symfx"
hide() { sed -E 's/[0-9a-f]{38,40}/HEX/g; s/tables end at 0x[0-9a-f]+/tables end at 0xN/g; s|build-id/[0-9a-f]{2}/|build-id/XX/|g; s/CRC32 [0-9a-f]{8}, .gnu_debuglink expects [0-9a-f]{8}/CRC32 X, .gnu_debuglink expects Y/'; }
bid=$(cat g5.buildid)
main=0x$(nm g5 | awk '$3 == "main" { print $1 }')
rel=.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug
echo "-e, another build's debug file in the store:"
tracetool symbolicate -e bare/g5 --symbols store2 -f "$main" 2>&1 | hide
echo "backtrace, the same:"
printf '    #00 pc %016x  /system/lib64/g5 (BuildId: %s)\n' "$main" "$bid" > bt.txt
tracetool symbolicate --symbols store2 bt.txt 2>&1 > /dev/null | hide
for bad in trunc notelf; do
    rm -rf "st-$bad" && mkdir -p "st-$bad/$(dirname "$rel")" && cp $bad "st-$bad/$rel"
    echo "-e, $bad file in the store:"
    tracetool symbolicate -e bare/g5 --symbols "st-$bad" -f "$main" 2>&1 | hide
    echo "backtrace, the same:"
    tracetool symbolicate --symbols "st-$bad" bt.txt 2>&1 > /dev/null | hide
done
echo "debuglink target with another CRC:"
rm -rf dlbad && mkdir dlbad && cp dl/g5 dlbad/g5 && echo junk > dlbad/g5.debug
tracetool symbolicate -e dlbad/g5 -f "$main" 2>&1 | hide
