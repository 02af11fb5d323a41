tracetool report --group --format json -m report-mapping.txt ../../samples/reports.json
