#!/bin/sh
# A database written over an existing one keeps the old file's mode (and, where the run may
# give it, its owner and group): analyze and merge build the new file aside and rename it
# over the old one, which used to leave it 0644 and owned by the user running them (a 0600
# database became readable by everyone). Also analyze --append (in place) and merge --append
# (a copy renamed over it). Running as root, the file is first given to user nobody; as
# another user it stays the user's own: the lines printed are the same either way.
set -u
t=$TT_TMP/keep-mode
rm -rf "$t" && mkdir -p "$t"
tracetool analyze -o "$t/src.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/src2.db" ../../samples/samples.jsonl > /dev/null 2>&1 || exit 1
owner=$(id -u):$(id -g)
[ "$(id -u)" = 0 ] && owner=65534:65534
# check LABEL EXIT: the mode of out.db, and whether its owner and group are still $owner
check() {
    now=$(stat -c %u:%g "$t/out.db")
    [ "$now" = "$owner" ] && o="owner kept" || o="owner $now, expected $owner"
    echo "$1: exit $2, mode $(stat -c %a "$t/out.db"), $o, $(ls "$t" | grep -c 'tmp-') temporary files"
}
# prep MODE: out.db, a database with that mode and owner
prep() {
    cp "$t/src.db" "$t/out.db" && chown "$owner" "$t/out.db" && chmod "$1" "$t/out.db"
}
for m in 600 640; do
    prep $m
    tracetool analyze -o "$t/out.db" ../../samples/samples.jsonl > /dev/null 2>&1
    check "analyze over $m" $?
    prep $m
    tracetool analyze --append -o "$t/out.db" ../../samples/samples.jsonl > /dev/null 2>&1
    check "analyze --append to $m" $?
    prep $m
    tracetool merge -o "$t/out.db" "$t/src.db" > /dev/null 2>&1
    check "merge over $m" $?
    prep $m
    tracetool merge --append -o "$t/out.db" "$t/src2.db" > /dev/null 2>&1
    check "merge --append to $m" $?
done
# a new file keeps the default mode (umask 022)
rm -f "$t/out.db"
(umask 022 && tracetool analyze -o "$t/out.db" ../../samples/samples.jsonl > /dev/null 2>&1)
echo "new file: $(stat -c %a "$t/out.db")"
