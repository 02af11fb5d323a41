sh ../cli/merge/assoc.sh
