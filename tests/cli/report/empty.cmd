tracetool report report-empty.txt
