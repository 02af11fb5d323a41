sh ../cli/schema/sqlite-383.sh
