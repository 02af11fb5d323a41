gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool export --format folded --weight cpu a.trace && tracetool export --format folded --weight wall a.trace
