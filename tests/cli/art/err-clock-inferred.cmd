{ cat art/ex52-v3cpu.txt; echo option no-clock-key; } | gen_art - $TT_TMP/a.trace && cd $TT_TMP && tracetool art --clock wall a.trace
