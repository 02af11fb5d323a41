gen_beat encode -o $TT_TMP/v7.bin O:5:10 I:1:10 I:2:12 O:2:20 O:1:30 I:3:30 O:3:40 && tracetool beat --lenient --format matrix $TT_TMP/v7.bin
