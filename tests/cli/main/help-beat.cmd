tracetool help beat
