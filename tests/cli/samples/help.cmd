tracetool samples -h
