sh ../cli/samples/json-flat-deep.sh 2>&1 | sed "s|$TT_TMP|TMP|g"
