# A full temporary directory ($SQLITE_TMPDIR) is named in merge's error, beside OUT's volume
# (SQLite cannot tell which one was full); exit 2 and OUT not written. Needs a 1 MiB tmpfs
# (root): skipped (77) without one.
d="$TT_TMP"
mkdir -p "$d/tmp" && mount -t tmpfs -o size=1m tmpfs "$d/tmp" 2> /dev/null || { echo "merge/full-tmpdir: needs root to mount a tmpfs" >&2; exit 77; }
trap 'umount "$d/tmp"' EXIT
gen_frames --format framestats --scenes 3 --frames 6000 --seed 7 > "$d/x.txt"
gen_frames --format framestats --scenes 3 --frames 6000 --seed 8 > "$d/y.txt"
tracetool analyze -o "$d/X.db" "$d/x.txt" > /dev/null 2>&1 || exit 1
tracetool analyze -o "$d/Y.db" "$d/y.txt" > /dev/null 2>&1 || exit 1
{ SQLITE_TMPDIR="$d/tmp" tracetool merge -o "$d/out.db" "$d/X.db" "$d/Y.db" 2>&1; echo "exit $?"; } | sed "s|$d/||g"
[ -e "$d/out.db" ] || echo "out.db not written"
