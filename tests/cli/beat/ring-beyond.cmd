gen_beat encode -o $TT_TMP/r.bin I:D:0 I:1:0 O:1:10 O:D:10 && cd $TT_TMP && tracetool beat --format matrix --ring-next 9 r.bin
