sh ../cli/merge/lock-wait.sh
