tracetool startup --format csv --table launches startup/am-not-started.txt
