tracetool analyze -h
