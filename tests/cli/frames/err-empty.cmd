tracetool frames /dev/null
