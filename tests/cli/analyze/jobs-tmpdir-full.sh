#!/bin/sh
# analyze --jobs N sorts the indexes with helper threads, whose runs go to temporary files
# in SQLite's temporary directory ($SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp, /tmp, .).
# With TMPDIR on a full file system that used to fail the run with "t.db: database or disk
# is full" although t.db's disk had space (--jobs 1 sorts in memory and succeeded). Now the
# threaded sort is rolled back and the indexes are sorted in memory, as with --jobs 1: same
# exit status, output and database bytes (imported_unix_ms aside). The full file system is a
# 64 KiB tmpfs mounted in a mount namespace of this test (unshare -m as root, unshare -rm
# through a user namespace otherwise); when neither works the test is skipped (exit 77).
set -u
t=$TT_TMP/an-tmpfull
rm -rf "$t" && mkdir -p "$t/big" "$t/tmpfs"
# 40,000 slices whose names go past the 2 MiB runs the sorter hands to helper threads
gen_beat mapping -n 3000 --seed 3 -o "$t/big/map.txt" || exit 1
gen_beat buffer --records 80000 --ids 3000 --seed 3 -o "$t/big/ring.bin" || exit 1
cat > "$t/run.sh" << SCRIPT
mount -t tmpfs -o size=64k tmpfs "$t/tmpfs" || exit 77
dd if=/dev/zero of="$t/tmpfs/fill" bs=4096 2> /dev/null
[ "\$(df --output=avail "$t/tmpfs" | tail -n 1 | tr -d ' ')" = 0 ] && echo "TMPDIR: full"
cd "$t/big" || exit 1
for j in 1 2 4; do
    mkdir -p "\$j" && cd "\$j" || exit 1
    env -u SQLITE_TMPDIR TMPDIR="$t/tmpfs" tracetool analyze --jobs \$j -o t.db -m ../map.txt ../ring.bin > out 2> err
    echo "--jobs \$j: exit \$?"
    cd ..
done
SCRIPT
if [ "$(id -u)" = 0 ]; then
    unshare -m true 2> /dev/null && unshare -m sh "$t/run.sh"
else
    unshare -rm true 2> /dev/null && unshare -rm sh "$t/run.sh"
fi
rc=$?
if [ $rc = 77 ] || ! [ -f "$t/big/1/out" ]; then
    echo "SKIP: no mount namespace (unshare -m or -rm) for a small full tmpfs" >&2
    exit 77
fi
tail -n 1 "$t/big/2/err"
for j in 2 4; do
    r=""
    for f in out err; do cmp -s "$t/big/1/$f" "$t/big/$j/$f" || r="$r $f"; done
    for x in 1 $j; do
        cp "$t/big/$x/t.db" "$t/big/$x/n.db" 2> /dev/null &&
            tracetool query --write "$t/big/$x/n.db" "UPDATE trace SET imported_unix_ms = 0"
    done
    cmp -s "$t/big/1/n.db" "$t/big/$j/n.db" || r="$r database"
    echo "--jobs $j: ${r:+DIFFERENT:}${r:-same as --jobs 1}"
done
ls "$t/big/2" | grep -c 'tmp-' | sed 's/^/temporary files left: /'
