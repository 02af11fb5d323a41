tracetool analyze
