sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate 0x1139 -e g4 -f > a && tracetool symbolicate -f -e g4 0x1139 > b && cmp a b && echo same
