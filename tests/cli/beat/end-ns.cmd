gen_beat encode -o $TT_TMP/v12.bin I:D:100 I:1:100 && tracetool beat --format matrix --base-ms 1000 --end-ms 5000000000000 --cost 700 $TT_TMP/v12.bin
