tracetool symbolicate -e macho/d5.dSYM -C --format json $(cat macho/d5.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/d5.oracle.json
