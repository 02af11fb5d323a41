tracetool symbolicate -e macho/mini-swift.macho -f --swift-demangler 'sh swift-demangle.sh' 0x100000110 0x100000138
