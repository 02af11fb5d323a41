tracetool symbolicate -e macho/cxxapp -C --format json $(cat macho/cxxapp.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/cxxapp.oracle.json
