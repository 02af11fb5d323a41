tracetool html a b c
