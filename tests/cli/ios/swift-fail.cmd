tracetool report --dsym macho/mini-swift.macho --swift-demangler 'exit 3' ios-swift.json
