sh ../cli/diff/signal.sh ignored 2> /dev/null
