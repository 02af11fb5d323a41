sh ../cli/query/wal-frames-readonly.sh
