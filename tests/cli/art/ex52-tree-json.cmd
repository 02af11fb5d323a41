gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --tree --format json --threads main a.trace
