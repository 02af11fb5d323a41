gen_art art/synthetic.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --units us --normalize-synthetic a.trace
