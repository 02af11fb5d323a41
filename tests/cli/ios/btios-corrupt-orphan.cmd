tracetool samples ios-bt-orphan.db.gz
