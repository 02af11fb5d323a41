gen_art art/sampled.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace | head -3
