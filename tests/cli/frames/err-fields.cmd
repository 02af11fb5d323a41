tracetool frames frames-bad-fields.txt
