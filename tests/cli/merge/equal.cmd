sh ../cli/merge/equal.sh
