printf "hello\n" | tracetool frames -
