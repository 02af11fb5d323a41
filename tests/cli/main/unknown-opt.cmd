tracetool --bogus
