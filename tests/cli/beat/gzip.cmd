gzip -c ../../samples/beat.bin > $TT_TMP/beat.bin.gz && tracetool beat --format matrix --cost 1200 $TT_TMP/beat.bin.gz
