tracetool frames ../../samples/framestats.txt ../../samples/framestats.txt
