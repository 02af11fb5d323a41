tracetool analyze --fail-on evil_method:0 ../../samples/beat.bin; tracetool analyze --fail-on data-loss@5 ../../samples/beat.bin; tracetool analyze --fail-on slow ../../samples/beat.bin
