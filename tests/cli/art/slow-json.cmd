gen_art art/slow.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --threshold-ms 50 --format json a.trace
