head -c 8000 /dev/zero > $TT_TMP/ring0.bin && cd $TT_TMP && tracetool beat --format json ring0.bin; echo "exit $?"; tracetool beat --format matrix ring0.bin; echo "exit $?"
