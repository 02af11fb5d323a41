tracetool report report-mapping.txt
