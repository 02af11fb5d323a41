tracetool startup --format csv --table launches ../../samples/startup-logcat.txt
