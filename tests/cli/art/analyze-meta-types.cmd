gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool analyze -o db a.trace > /dev/null && tracetool query db "SELECT name, int_value, str_value FROM metadata ORDER BY name"
