tracetool diff -h
