tracetool frames --format csv ../../samples/framestats.txt
