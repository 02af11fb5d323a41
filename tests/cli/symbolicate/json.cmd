sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" json g5 top json
