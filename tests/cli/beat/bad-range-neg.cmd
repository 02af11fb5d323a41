tracetool beat beat-range-neg.txt
