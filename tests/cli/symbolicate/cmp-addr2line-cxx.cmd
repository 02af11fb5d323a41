sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" compare t5 addr2line main _ZN2ns3AccIlE5totalERKSt6vectorIlSaIlEE
