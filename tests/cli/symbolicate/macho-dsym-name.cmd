echo "0   MyApp  MyApp+0x4050" | tracetool symbolicate --dsym MyApp=macho/app.dSYM --kind modoff
