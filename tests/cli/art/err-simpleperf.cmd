printf "SIMPLEPERF\010\000\000\000" > $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace
