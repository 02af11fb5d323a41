gen_beat encode --format text -o $TT_TMP/v11.txt I:D:100 I:1:100 I:2:150 O:2:160 && tracetool beat --format matrix --base-ms 1000 --end-ms 1500 --cost 700 $TT_TMP/v11.txt
