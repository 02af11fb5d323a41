sh ../cli/flamegraph/atomic-output.sh
