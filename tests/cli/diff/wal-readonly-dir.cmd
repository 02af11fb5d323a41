sh ../cli/diff/wal-readonly-dir.sh
