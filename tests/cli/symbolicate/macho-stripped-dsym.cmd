tracetool symbolicate -e macho/app_stripped --dsym macho/app.dSYM -a -f -i -C -p 0x100004050 0x100004110
