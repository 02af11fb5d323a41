sh ../cli/flamegraph/deep-beat.sh 2>&1 | sed "s|$TT_TMP|TMP|g"
