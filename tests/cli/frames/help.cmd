tracetool frames -h
