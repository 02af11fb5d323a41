tracetool frames --format json frames-spec73.txt
