tracetool export --format folded --weight wall ios-bt-interval-v2.db.gz
