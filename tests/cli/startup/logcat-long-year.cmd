tracetool startup --format csv --table launches startup/logcat-long.txt startup/logcat-year.txt
