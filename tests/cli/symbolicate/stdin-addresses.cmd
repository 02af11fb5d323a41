sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && printf '0x10 0x20\n\n0x30\n' | tracetool symbolicate -e g5 -a -f
