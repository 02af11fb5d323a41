sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate -e corrupt -f -i $(nm corrupt | sed -n 's/ T top$//p' | sed 's/^/0x/')
