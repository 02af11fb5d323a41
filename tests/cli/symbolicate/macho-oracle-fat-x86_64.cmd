tracetool symbolicate -e macho/fat:x86_64 -C --format json $(cat macho/appx.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/appx.oracle.json
