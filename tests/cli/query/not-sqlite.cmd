tracetool query an-v1.bin "select 1"
