tracetool report ../../samples/reports.json
