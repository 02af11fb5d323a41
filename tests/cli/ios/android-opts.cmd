tracetool report -m report-mapping.txt ios-lag-2001.json
