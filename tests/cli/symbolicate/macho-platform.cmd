rm -rf "$TT_TMP/pf-store"; tracetool symbolicate --add-to-store "$TT_TMP/pf-store" macho/mini-swift.macho macho/mini-vmin.macho macho/mini-arm64.macho | sed "s|$TT_TMP|TMP|"
