sh ../cli/diff/signal.sh 2> /dev/null
