tracetool beat --bogus x
