sh ../cli/analyze/keep-mode.sh
