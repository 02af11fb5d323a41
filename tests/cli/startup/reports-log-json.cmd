tracetool startup --format json ../../samples/reports.log
