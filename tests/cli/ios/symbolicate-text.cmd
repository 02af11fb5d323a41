tracetool symbolicate --kind kscrash ios-crash-kscrash.json
