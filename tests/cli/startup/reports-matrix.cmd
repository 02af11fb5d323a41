tracetool startup --matrix-compat ../../samples/reports.json
