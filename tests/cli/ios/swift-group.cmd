tracetool report --group --dsym macho --swift-demangler 'sh swift-demangle.sh' ios-swift.json ios-swift-b.json
