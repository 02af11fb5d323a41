gen_art art/ex52.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --tree --max-nodes 2 --clock cpu --units us --format csv a.trace
