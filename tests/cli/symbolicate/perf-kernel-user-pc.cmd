sh symedge/mk.sh "$TT_TMP/symedge" && cd "$TT_TMP/symedge" && tracetool symbolicate --symbols . --kind perf kernel.txt | sed "s/7f00000[0-9a-f]*/ADDR/"
