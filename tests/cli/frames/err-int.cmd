tracetool frames frames-bad-int.txt
