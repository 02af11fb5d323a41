tracetool startup startup/am-error.txt; tracetool startup --format csv --table launches startup/am-error.txt
