tracetool art -h
