sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" json t5 _ZN2ns3AccIlE5totalERKSt6vectorIlSaIlEE jsonl
