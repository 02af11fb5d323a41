tracetool beat beat-odd.bin
