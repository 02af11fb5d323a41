tracetool startup --format json - < startup/logcat-cut-report.log
