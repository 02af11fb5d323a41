gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --format json a.trace
