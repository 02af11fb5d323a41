tracetool startup startup/bad-am.txt
