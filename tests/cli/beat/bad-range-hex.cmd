tracetool beat beat-range-hex.txt
