sh ../cli/merge/kill.sh
