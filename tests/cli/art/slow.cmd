gen_art art/slow.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace
