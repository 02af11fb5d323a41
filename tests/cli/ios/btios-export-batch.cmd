tracetool export --format folded ios-bt-batch.db.gz
