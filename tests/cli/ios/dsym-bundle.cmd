tracetool report --dsym macho/app.dSYM ios-dsym-bundle.json
