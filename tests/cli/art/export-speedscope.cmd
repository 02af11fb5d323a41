tracetool export --format speedscope ../../samples/app.trace
