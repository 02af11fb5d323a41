tracetool symbolicate --kind kscrash --format tsv ios-lag-2001.json
