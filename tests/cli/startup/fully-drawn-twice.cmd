tracetool startup --format csv --table launches startup/logcat-fully-drawn-twice.txt
