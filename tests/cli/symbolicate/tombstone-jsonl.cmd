sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" backtrace auto jsonl
