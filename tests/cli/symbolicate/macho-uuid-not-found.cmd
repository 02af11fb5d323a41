tracetool symbolicate --symbols macho --uuid 00000000-1111-2222-3333-444444444444 0x100004050
