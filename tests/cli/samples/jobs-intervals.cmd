sh ../cli/samples/jobs-intervals.sh
