tracetool symbolicate -e macho/app --dsym macho/Kit.framework.dSYM -f -i 0x100004050 2>&1
