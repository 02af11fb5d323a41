gen_beat sample --ring-next 700 -o $TT_TMP/ring2.bin && cd $TT_TMP && tracetool beat --format matrix --cost 1200 ring2.bin
