tracetool report --dsym macho/app.dSYM ios-line0.json
