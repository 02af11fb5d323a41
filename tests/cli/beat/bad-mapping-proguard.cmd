tracetool beat -m ../../samples/mapping.txt ../../samples/beat.bin; echo "exit $?"; tracetool analyze -o $TT_TMP/a.db -m ../../samples/mapping.txt ../../samples/beat.bin; echo "exit $?"
