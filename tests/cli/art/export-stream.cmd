gen_art art/ex52-stream.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool export --format folded a.trace
