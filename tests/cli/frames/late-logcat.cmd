tracetool frames late-fps.log.gz
