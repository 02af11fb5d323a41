tracetool beat beat-range.txt
