tracetool beat beat-3bytes.bin
