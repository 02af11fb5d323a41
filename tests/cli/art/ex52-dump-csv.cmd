gen_art art/ex52-stream.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --dump --format csv a.trace
