tracetool report ios-crash-kscrash.json
