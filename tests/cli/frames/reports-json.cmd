tracetool frames --format json ../../samples/reports.json
