tracetool symbolicate -e no/such/file 0x10
