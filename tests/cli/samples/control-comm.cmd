# a perf script thread name holding a control byte (\x01) is still perf text
printf 'a\001b 13525 64621.461857:    1001001 cpu-clock:ppp: \n\t            1176 leaf+0x1d (/tmp/busy)\n\t            11b4 top+0x17 (/tmp/busy)\n\n' > "$TT_TMP/p.txt" && tracetool export --format folded "$TT_TMP/p.txt" | od -An -c | head -3
