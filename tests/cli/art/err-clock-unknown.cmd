gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && sed -i 's/^clock=dual$/clock=duel/' a.trace && tracetool art --profile a.trace
