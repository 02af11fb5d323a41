tracetool export --format folded --weight samples -m beat-small-mapping.txt beat-small.txt
