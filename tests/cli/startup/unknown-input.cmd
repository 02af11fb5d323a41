tracetool startup startup/unknown.txt
