tracetool export --format chrome ../../samples/app.trace
