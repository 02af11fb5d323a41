tracetool frames ../../samples/framestats.txt
