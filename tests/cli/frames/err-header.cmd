tracetool frames frames-bad-header.txt
