sh ../cli/merge/corrupt-input.sh
