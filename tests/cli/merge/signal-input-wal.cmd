sh ../cli/merge/signal-input-wal.sh
