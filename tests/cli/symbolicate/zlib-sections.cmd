sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" chain g5 top --via="-e FIX/z5" "leaf at inline.c:@leaf <- mid at inline.c:@mid <- top at inline.c:@top"
