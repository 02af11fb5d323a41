tracetool frames no-such-file.txt
