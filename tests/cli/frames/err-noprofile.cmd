tracetool frames frames-noprofile.txt
