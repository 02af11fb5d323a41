sh ../cli/merge/full-tmpdir.sh
