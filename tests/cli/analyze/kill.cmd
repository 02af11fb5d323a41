sh ../cli/analyze/kill.sh
