#!/bin/sh
# A symbolic link that another user planted in a shared directory (sticky and writable by
# all, like /tmp) is not followed by an output, and the writers' lock file is never opened
# through a link: run as root, tracetool would otherwise replace or create a file of that
# user's choosing (the rule of the kernel's fs.protected_symlinks). Needs root (chown).
set -u
if [ "$(id -u)" != 0 ] || ! id nobody > /dev/null 2>&1; then
    echo "needs root and the user nobody" >&2
    exit 77
fi
t=$TT_TMP/shared
mkdir -p "$t/tmp"
chmod 1777 "$t/tmp"
tracetool analyze -o "$t/a.db" ../../samples/stacks.folded > /dev/null
printf 'precious\n' > "$t/victim"
ln -s "$t/victim" "$t/tmp/out.svg"
chown -h nobody "$t/tmp/out.svg"
tracetool flamegraph -o "$t/tmp/out.svg" "$t/a.db" 2>&1 | sed "s|$TT_TMP|TMP|g"
ln -s "$t/victim2" "$t/tmp/x.db.lock"
chown -h nobody "$t/tmp/x.db.lock"
tracetool analyze -o "$t/tmp/x.db" ../../samples/stacks.folded 2>&1 | sed "s|$TT_TMP|TMP|g"
[ "$(cat "$t/victim")" = precious ] && echo "victim unchanged"
[ -e "$t/victim2" ] || echo "no file created through the lock's link"
[ -e "$t/tmp/x.db" ] || echo "no database written"
# our own link there, and a link of another user elsewhere, are followed
ln -s "$t/mine.svg" "$t/tmp/mine.svg"
tracetool flamegraph -o "$t/tmp/mine.svg" "$t/a.db" && [ -s "$t/mine.svg" ] && echo "own link followed"
ln -s "$t/theirs.svg" "$t/theirs-link.svg"
chown -h nobody "$t/theirs-link.svg"
tracetool flamegraph -o "$t/theirs-link.svg" "$t/a.db" && [ -s "$t/theirs.svg" ] &&
    echo "another user's link outside a shared directory followed"
exit 0
