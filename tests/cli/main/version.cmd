tracetool --version
