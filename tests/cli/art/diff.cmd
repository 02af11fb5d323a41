gen_art art/diff-base.txt $TT_TMP/base.trace && gen_art art/diff-new.txt $TT_TMP/new.trace && cd $TT_TMP && tracetool diff base.trace new.trace
