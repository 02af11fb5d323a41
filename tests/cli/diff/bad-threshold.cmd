tracetool diff --threshold -5 a.db b.db
