sh ../cli/merge/wal.sh
