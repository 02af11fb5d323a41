tracetool symbolicate -e macho/fat:arm64 -C --format json $(cat macho/app.addrs) > "$TT_TMP/o.json" && python3 ../sym/macho_compare.py "$TT_TMP/o.json" macho/fat-arm64.oracle.json
