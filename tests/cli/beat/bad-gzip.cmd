tracetool beat beat-corrupt.gz
