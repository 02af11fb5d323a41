tracetool startup --format json ../../samples/startup-am.txt
