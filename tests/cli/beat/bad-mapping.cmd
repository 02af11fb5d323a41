tracetool beat -m map-bad.txt beat-v1.txt
