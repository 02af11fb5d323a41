{ cat art/ex52.txt; echo option no-clock-key; } | gen_art - $TT_TMP/a.trace && cd $TT_TMP && tracetool art a.trace | head -1 && tracetool art --profile --units us --format csv a.trace
