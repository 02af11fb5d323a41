tracetool report -h
