gen_beat encode -o $TT_TMP/v.bin I:D:100 I:1:100 && tracetool beat --format matrix --base-ms 9223372036854 --end-ms 9223372036854775807 --cost 700 $TT_TMP/v.bin
