tracetool startup startup/late-displayed.log
