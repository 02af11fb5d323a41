sh ../cli/samples/jobs-long.sh
