tracetool beat --trim 0 -m mapping-bad-desc.txt beat-v1.txt
