tracetool symbolicate -e macho/mini-swift.macho --format json --swift-demangler 'sh swift-demangle.sh' 0x100000110
