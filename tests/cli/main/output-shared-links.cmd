sh ../cli/main/output-shared-links.sh
