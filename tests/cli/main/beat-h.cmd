tracetool beat -h | head -1
