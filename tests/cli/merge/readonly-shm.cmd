sh ../cli/merge/readonly-shm.sh
