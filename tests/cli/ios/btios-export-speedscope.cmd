tracetool export --format speedscope ios-bt-point.db.gz
