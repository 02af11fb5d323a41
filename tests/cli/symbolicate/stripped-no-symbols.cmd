sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate -e bare/g5 -f 0x1000
