{ cat art/ex52.txt; echo option header-version 9; } | gen_art - $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace; echo "exit $?"; tracetool analyze -o a.db a.trace
