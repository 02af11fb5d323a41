tracetool html nosuch.db
