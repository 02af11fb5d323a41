#!/bin/sh
# A WAL database (as analyze writes it) in a directory the reader cannot write: SQLite
# cannot create its -shm file, so readers open it with immutable=1 (storage.md 5.4). query,
# export and diff must all read it. The directory is made read-only with chmod 0555; root
# ignores directory permissions, so as root the commands run as user nobody (setpriv),
# or inside a read-only bind mount (unshare) when setpriv is missing; when neither works
# the test prints SKIP lines and fails visibly.
set -u
bin=$(command -v tracetool)
bin=$(readlink -f "$bin")
d=$(mktemp -d /tmp/tt-walro-XXXXXX)
chmod 755 "$d"
mkdir "$d/ro"
tracetool analyze -o "$d/ro/a.db" -m an-map.txt an-v1.bin ../../samples/stacks.folded > /dev/null
tracetool analyze -o "$d/ro/b.db" -m an-map.txt an-v1.txt > /dev/null
ls "$d/ro" | grep -q -- '-shm' && echo "unexpected -shm file"
chmod 555 "$d/ro"
cat > "$d/run.sh" << SCRIPT
cd "$d/ro" || exit 1
"$bin" query a.db "select count(*) as traces from trace"
"$bin" export --format folded a.db 2>&1 | head -1
"$bin" diff a.db b.db | head -2
touch probe 2> /dev/null && echo "directory is writable: not testing the read-only case"
exit 0
SCRIPT
chmod 755 "$d/run.sh"
if [ "$(id -u)" != 0 ]; then
    sh "$d/run.sh"
elif command -v setpriv > /dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin"; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh "$d/run.sh"
elif unshare -m true 2> /dev/null; then
    unshare -m sh -c "mount --bind '$d/ro' '$d/ro' && mount -o remount,ro,bind '$d/ro' && sh '$d/run.sh'"
else
    echo "SKIP: running as root without setpriv or unshare: a read-only directory cannot be made"
fi
ls "$d/ro" | grep -q -- '-shm' && echo "a -shm file was created"
chmod 755 "$d/ro"
rm -rf "$d"
