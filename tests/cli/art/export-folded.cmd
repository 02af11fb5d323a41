tracetool export --format folded ../../samples/app.trace
