tracetool analyze -o "$TT_TMP/unknown.db" an-v1.bin an-unknown.txt; echo "rc=$?"; ls "$TT_TMP" | grep -c "^unknown\.db"
