tracetool startup
