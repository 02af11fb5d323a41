tracetool frames ../../samples/framestats.txt --format csv | head -3
