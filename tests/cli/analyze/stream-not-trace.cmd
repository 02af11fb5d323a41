sh ../cli/analyze/stream-not-trace.sh
