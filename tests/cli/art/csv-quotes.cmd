gen_art art/csv-quotes.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --dump --format csv a.trace && tracetool art --tree --format csv a.trace && tracetool art --profile --format csv a.trace
