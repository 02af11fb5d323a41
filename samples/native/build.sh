#!/bin/sh
# Rebuilds samples/native/libdemo.so from demo.c (run from the repository root); the
# addresses in samples/native-tombstone.txt must then be recomputed (see samples/README).
set -eu
cd "$(dirname "$0")"
gcc -O2 -g -shared -fPIC -fdebug-prefix-map="$(pwd)"=/src/native -Wl,--build-id=sha1 \
    -o libdemo.so demo.c
