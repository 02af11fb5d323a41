tracetool symbolicate -e macho/app_x --dsym macho/Kit.framework.dSYM -a -f -i -p 0x100004050
