tracetool beat -m map-bad-id.txt beat-v1.txt
