tracetool diff an-corrupt-db.dat an-corrupt-db.dat
