gen_art art/wrap.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --units us a.trace
