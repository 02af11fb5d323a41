tracetool query an-corrupt-db.dat "select 1"
