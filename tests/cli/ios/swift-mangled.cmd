tracetool report --dsym macho/mini-swift.macho ios-swift.json
