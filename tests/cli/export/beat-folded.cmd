tracetool export --format folded -m beat-small-mapping.txt beat-small.txt
