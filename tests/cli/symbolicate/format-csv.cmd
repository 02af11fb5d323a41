sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate -e t5 --format csv -C -s 0x1234 0x0 && tracetool symbolicate -e t5 --format tsv -C -s 0x1234 | tr "\t" "|"
