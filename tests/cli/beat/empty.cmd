tracetool beat beat-empty.bin
