tracetool startup --format json ../../samples/startup-logcat.txt
