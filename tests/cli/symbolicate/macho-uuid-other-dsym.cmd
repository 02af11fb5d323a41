tracetool symbolicate --uuid 00112233-4455-6677-8899-aabbccddeeff --dsym macho/app.dSYM -f 0x100004004
