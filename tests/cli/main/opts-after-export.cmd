tracetool export beat-small.txt --format folded -m beat-small-mapping.txt
