tracetool symbolicate -e macho/Kit --dsym macho/Kit.framework.dSYM -C --format json $(cat macho/Kit.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/Kit.oracle.json
