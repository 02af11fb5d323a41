tracetool beat --ring-next -1 beat-v1.txt
