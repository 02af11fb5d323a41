gen_art art/ex52.txt $TT_TMP/a.trace && gzip -c $TT_TMP/a.trace | tracetool art --profile --units us -
