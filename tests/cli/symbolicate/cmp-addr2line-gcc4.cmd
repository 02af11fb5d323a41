sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" compare g4 addr2line top main count_bits.constprop.0 fail_hard
