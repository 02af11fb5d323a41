tracetool beat beat-v1.txt beat-v1.txt
