tracetool export --format speedscope -m beat-small-mapping.txt beat-small.txt
