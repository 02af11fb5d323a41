tracetool report --dsym macho/mini-swift.macho --swift-demangler 'sh swift-demangle.sh' ios-swift.json
