gen_art art/ex52-v3cpu.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --format csv a.trace
