gen_art art/overflow.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --units us a.trace
