gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --dump --units us --clock first a.trace
