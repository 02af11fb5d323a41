tracetool symbolicate --symbols macho --uuid 4C4C44AF-5555-3144-A1BC-C437781A73D8 -a -f -i -C -p 0x100004050
