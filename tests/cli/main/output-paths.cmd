sh ../cli/main/output-paths.sh
