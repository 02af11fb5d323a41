tracetool export -h
