tracetool symbolicate --kind kscrash --dsym B=ios-store ios-symbolicated.json 2>/dev/null | grep "^[01] "
