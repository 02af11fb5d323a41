tracetool report --dsym macho/mini-swift.macho --swift-demangler 'head -n 1' ios-swift.json ios-swift-b.json
