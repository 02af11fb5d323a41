sh ../cli/export/binary-terminal.sh
