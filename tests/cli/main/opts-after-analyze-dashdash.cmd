cp an-v1.bin "$TT_TMP/-m" && cd "$TT_TMP" && tracetool analyze -o a.db -- -m 2>/dev/null | grep -c "^  -m  *beat" 
