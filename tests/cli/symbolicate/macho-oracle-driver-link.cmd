tracetool symbolicate -e macho/single -C --format json $(cat macho/single.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/single.oracle.json
