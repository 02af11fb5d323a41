for f in macho/hostile-*; do tracetool symbolicate -e "$f" 0x100000160; echo "$f: exit $?"; done
