tracetool startup ../../samples/startup-am.txt --format csv --table launches | head -3
