tracetool export --format folded an-corrupt-db.dat
