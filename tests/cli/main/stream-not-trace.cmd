sh ../cli/main/stream-not-trace.sh
