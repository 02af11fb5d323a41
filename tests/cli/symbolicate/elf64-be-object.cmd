sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" chain be64.o lib_entry "lib_helper at lib.c:@libhelper <- lib_entry at lib.c:@libentry"
