sh ../cli/merge/input-wal.sh
