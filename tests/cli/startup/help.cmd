tracetool startup -h
