tracetool samples --top 3 -e macho/app.dSYM ios-bt-point.db.gz
