tracetool report --names java -m report-mapping.txt - < ../../samples/reports.json | head -12
