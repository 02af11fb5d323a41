tracetool symbolicate --kind tombstone --format tsv
