tracetool samples ios-bt-cycle.db.gz
