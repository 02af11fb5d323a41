sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && python3 ../sym/facts.py "$TT_TMP/symfx" compare g5 llvm-symbolizer top main count_bits.constprop.0
