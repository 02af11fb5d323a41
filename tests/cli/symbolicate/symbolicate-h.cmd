tracetool symbolicate -h
