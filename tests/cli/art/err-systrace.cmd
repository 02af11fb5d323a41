printf "# tracer: nop\n#\n" > $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace
