tracetool beat -m mapping-trailing-blanks.txt beat-trailing-map.txt
