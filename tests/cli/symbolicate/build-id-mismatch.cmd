sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && { tracetool symbolicate --symbols store2 --build-id $(cat g5.buildid) 0x10; echo "exit $?"; } 2>&1 | sed -E 's/[0-9a-f]{40}/HEX/g'
