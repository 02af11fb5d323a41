for s in "tree:+1" "tree: 1" "issue:+1" "issue:1 " "startup:+1" "startup: 1" "tree:99999999999999999999"; do tracetool flamegraph --source "$s" flame-spec34.folded; echo "exit $?"; done 2>&1
