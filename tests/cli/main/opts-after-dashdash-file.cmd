cp beat-small.txt "$TT_TMP/--format" && cd "$TT_TMP" && tracetool beat --format matrix --cost 10 -- --format
