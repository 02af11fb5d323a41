tracetool beat --format matrix --cost 1540 beat-v1.txt
