tracetool startup ../../samples/startup-am.txt
