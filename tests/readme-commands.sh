#!/bin/sh
# Prints the command lines of README.md's "Using it" section (the indented block lines,
# backslash continuations joined), one per line, for tests/run-cli-tests.sh to run from the
# repository root with tracetool on PATH.
awk '/^## /{u = ($0 == "## Using it"); next}
     u && /^    / {sub(/^    /, ""); line = line $0
                    if (line ~ /\\$/) {sub(/\\$/, "", line); next}
                    print line; line = ""}' "${1:-README.md}"
