sh ../cli/merge/errors.sh
