tracetool startup startup/logcat-cut-report.log
