sh ../cli/analyze/jobs-tmpdir-full.sh
