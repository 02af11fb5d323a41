sh ../cli/export/atomic-output.sh
