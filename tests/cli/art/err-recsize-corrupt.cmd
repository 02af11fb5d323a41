{ cat art/ex52.txt; echo option record-size-field 65535; } | gen_art - $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace
