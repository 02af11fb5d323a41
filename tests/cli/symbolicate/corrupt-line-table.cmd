sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate -e badline -f -i $(nm badline | sed -n 's/ T top$//p' | sed 's/^/0x/')
