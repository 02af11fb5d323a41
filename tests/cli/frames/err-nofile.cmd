tracetool frames
