tracetool symbolicate -e macho/app_stripped --dsym macho/app.dSYM -C --format json $(cat macho/app.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/app.oracle.json
