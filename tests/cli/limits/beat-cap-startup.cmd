head -c 70000000 /dev/zero | tracetool startup -
