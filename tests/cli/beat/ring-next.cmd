gen_beat sample --ring-next 700 -o $TT_TMP/ring.bin && tracetool beat --format matrix --cost 1200 --ring-next 700 $TT_TMP/ring.bin
