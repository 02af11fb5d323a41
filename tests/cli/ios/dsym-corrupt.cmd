tracetool report --dsym macho/hostile-cmdsize.macho ios-dsym-bundle.json
