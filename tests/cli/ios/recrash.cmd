tracetool report ios-recrash.json
