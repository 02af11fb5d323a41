sh ../sym/mkfixtures.sh "$TT_TMP/symfx" && cd "$TT_TMP/symfx" && tracetool symbolicate --symbols store --build-id 00112233445566778899 0x10
