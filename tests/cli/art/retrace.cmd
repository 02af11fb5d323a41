gen_art art/obfuscated.txt $TT_TMP/a.trace && tracetool art --profile --units us --retrace ../../samples/mapping.txt $TT_TMP/a.trace 2>&1 | sed "s|$TT_TMP/||"
