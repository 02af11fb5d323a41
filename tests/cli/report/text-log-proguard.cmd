tracetool report -m report-mapping.txt --proguard report-proguard.txt ../../samples/reports.log
