tracetool beat -m nosuch.txt beat-v1.txt
