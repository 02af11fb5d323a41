gzip -c ../../samples/beat.txt > $TT_TMP/beat.txt.gz && tracetool beat --format matrix --cost 1200 $TT_TMP/beat.txt.gz
