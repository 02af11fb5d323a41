gen_art art/wrap-threads.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --dump --units us a.trace && tracetool art --profile --units us a.trace
