printf '0x10\n0x2\0x\n' | tracetool symbolicate -e "$(command -v tracetool)"
