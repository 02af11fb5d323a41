gen_art art/ex52-v2wall.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --clock cpu a.trace
