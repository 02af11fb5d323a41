tracetool frames --format csv frames-invalid-rows.txt
