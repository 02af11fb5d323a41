sh ../cli/merge/ignored.sh
