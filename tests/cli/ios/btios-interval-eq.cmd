tracetool samples --max-gap 2ms ios-bt-interval-eq.db.gz | sed -n '/^slices:/,/^$/p'
