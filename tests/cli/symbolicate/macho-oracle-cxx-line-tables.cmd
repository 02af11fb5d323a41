tracetool symbolicate -e macho/cxxlt -C --format json $(cat macho/cxxlt.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/cxxlt.oracle.json
