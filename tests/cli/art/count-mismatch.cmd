{ cat art/ex52.txt; echo option truncate 14; } | gen_art - $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace
