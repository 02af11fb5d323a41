sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && for o in "-p -f -a" "-p -f -i" "-p -a" "-p -f" "-a -f -i"; do echo "$o:"; tracetool symbolicate -e libfx.so $o 0x9999999; done
