tracetool query -h
