gen_art art/overflow.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --tree --art-close-at trace-end --units us a.trace
