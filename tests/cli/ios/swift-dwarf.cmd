tracetool report --dsym macho/swiftapp.dSYM ios-swift-dwarf.json
