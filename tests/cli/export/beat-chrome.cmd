tracetool export --format chrome -m beat-small-mapping.txt beat-small.txt
