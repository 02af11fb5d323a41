tracetool export --format folded ios-bt-badblob.db.gz
