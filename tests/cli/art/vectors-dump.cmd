gen_art art/vectors.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --dump --units us a.trace
