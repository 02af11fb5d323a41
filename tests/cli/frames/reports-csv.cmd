tracetool frames --format csv ../../samples/reports.log
