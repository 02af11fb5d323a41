tracetool startup ../../samples/startup-logcat.txt
