echo "frame app+0x4050 Kit+0x4030" | tracetool symbolicate --symbols macho --kind modoff
