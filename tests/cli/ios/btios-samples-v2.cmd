tracetool samples --top 3 --weight cpu ios-bt-interval-v2.db.gz
