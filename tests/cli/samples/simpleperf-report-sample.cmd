tracetool samples simpleperf-report-sample.txt; echo "rc=$?"; tracetool samples --kind perf simpleperf-report-sample.txt; echo "rc=$?"
