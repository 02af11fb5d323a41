tracetool help nosuch
