tracetool symbolicate --dsym x.dSYM ios-lag-2001.json
