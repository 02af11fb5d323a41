tracetool report --format json -m report-mapping.txt ../../samples/reports.json ../../samples/reports.log
