sh ../cli/analyze/concurrent.sh
