tracetool frames frames-two-windows.txt
