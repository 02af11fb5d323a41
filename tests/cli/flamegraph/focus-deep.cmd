sh ../cli/flamegraph/focus-deep.sh 2>&1
