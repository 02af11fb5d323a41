tracetool -h
