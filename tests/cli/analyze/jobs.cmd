sh ../cli/analyze/jobs.sh
