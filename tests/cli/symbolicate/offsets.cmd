sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate -e g4 -f -i --offsets $(nm g4 | sed -n 's/ T top$//p' | sed 's/^0*40/0x/') | grep -x top
