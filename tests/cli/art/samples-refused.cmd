tracetool samples ../../samples/app.trace
