tracetool startup --max-median-ms 1100 --max-p90-ms 2000 --format csv --table launches ../../samples/startup-am.txt
