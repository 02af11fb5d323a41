tracetool samples --top 3 ios-bt-point.db.gz
