#!/bin/sh
# A WAL database whose log DB-wal holds committed changes (a writer killed before its
# checkpoint; DB and DB-wal copied without DB-shm) in a directory the reader cannot write:
# SQLite cannot make DB-shm, so the log cannot be read, and the immutable=1 fallback (storage.md
# 5.4) would read DB without it: query printed the old rows with exit 0, merge copied them
# and diff compared them. Each command now fails with exit 2 naming the log. A log of
# just its 32-byte header holds no change: that database is read (immutable) as before.
# The directory is made read-only with chmod 0555; root ignores directory permissions, so as
# root the commands run as user nobody (setpriv) or inside a read-only bind mount (unshare -m);
# when neither works the test is skipped (exit 77).
set -u
bin=$(readlink -f "$(command -v tracetool)")
t=$TT_TMP/walro
rm -rf "$t" && mkdir -p "$t/ro" "$t/w" && chmod 755 "$TT_TMP" "$t" && chmod 777 "$t/w"
tracetool analyze -o "$t/ro/a.db" ../../samples/stacks.folded > /dev/null 2>&1 || exit 1
tracetool analyze -o "$t/ro/b.db" ../../samples/perf-fib.txt.gz > /dev/null 2>&1 || exit 1
# a committed UPDATE left in the log by a process that exits without closing the database
python3 -c "
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute('PRAGMA wal_autocheckpoint = 0')
c.execute(\"UPDATE trace SET package = 'edited'\")
os._exit(0)" "$t/ro/a.db" || exit 1
rm -f "$t/ro/a.db-shm"
# h.db: a log of its header only (what a checkpoint that reset the log leaves)
cp "$t/ro/a.db" "$t/ro/h.db" && head -c 32 "$t/ro/a.db-wal" > "$t/ro/h.db-wal"
cat > "$t/run.sh" << SCRIPT
cd "$t/ro" || exit 1
touch probe 2> /dev/null && { echo "directory is writable: not testing the read-only case"; rm -f probe; }
"$bin" query a.db "select package from trace"; echo "query: exit \$?"
"$bin" export --format folded a.db > /dev/null; echo "export: exit \$?"
"$bin" diff a.db b.db > /dev/null; echo "diff: exit \$?"
"$bin" diff b.db a.db > /dev/null; echo "diff (new side): exit \$?"
"$bin" merge -o ../w/m.db b.db a.db > /dev/null; echo "merge: exit \$?"
[ -e ../w/m.db ] && echo "merge wrote m.db"
"$bin" query --format csv h.db "select count(*) from trace"; echo "header-only log: exit \$?"
exit 0
SCRIPT
chmod 755 "$t/run.sh"
chmod 555 "$t/ro"
if [ "$(id -u)" != 0 ]; then
    sh "$t/run.sh" 2>&1
elif command -v setpriv > /dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin" 2> /dev/null; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh "$t/run.sh" 2>&1
elif unshare -m true 2> /dev/null; then
    unshare -m sh -c "mount --bind '$t/ro' '$t/ro' && mount -o remount,ro,bind '$t/ro' && sh '$t/run.sh'" 2>&1
else
    chmod 755 "$t/ro"
    echo "SKIP: running as root without setpriv or unshare: a read-only directory cannot be made" >&2
    exit 77
fi
ls "$t/ro" | grep -q -- 'a.db-shm' && echo "a -shm file was created"
chmod 755 "$t/ro"
