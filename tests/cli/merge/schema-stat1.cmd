sh ../cli/merge/schema-stat1.sh
