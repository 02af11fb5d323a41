gen_art art/truncated.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --units us a.trace
