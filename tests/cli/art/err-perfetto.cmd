printf "\012\024\030\001\042\000" > $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace
