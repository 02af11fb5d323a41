tracetool beat beat-garbage.txt
