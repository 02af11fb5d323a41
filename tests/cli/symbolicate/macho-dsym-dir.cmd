tracetool symbolicate -e macho/app_stripped --dsym macho -a -f -i -p 0x100004050
