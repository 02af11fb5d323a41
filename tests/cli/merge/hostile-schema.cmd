sh ../cli/merge/hostile-schema.sh
