tracetool startup startup/am-wide.txt
