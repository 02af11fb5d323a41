tracetool analyze --format json -o "$TT_TMP/a.db" an-v1.txt.gz an-map.txt | sed "s|$TT_TMP|TMP|g"
