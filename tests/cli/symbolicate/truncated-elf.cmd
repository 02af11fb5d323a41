sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && { tracetool symbolicate -e trunc -a -f 0x10; echo "exit $?"; } 2>&1 | sed -E 's/0x[0-9a-f]+/0xN/g'
