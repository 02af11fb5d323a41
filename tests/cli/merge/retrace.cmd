sh ../cli/merge/retrace.sh
