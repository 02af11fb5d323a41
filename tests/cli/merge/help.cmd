tracetool merge -h
