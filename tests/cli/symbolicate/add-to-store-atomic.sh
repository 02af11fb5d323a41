#!/bin/sh
# --add-to-store writes each entry beside its final name and renames it (man page): a failed
# write (here the file size limit) leaves the entry already there byte-identical and no
# temporary file; storing the same file again, and a copy from another file system, work.
set -u
data=$(pwd)
sh ../sym/mkfixtures.sh "$TT_TMP/symfx" || exit 1
cd "$TT_TMP/symfx"
hide() { sed -E 's/[0-9a-f]{38,40}/HEX/g; s|build-id/[0-9a-f]{2}/|build-id/XX/|g; s|uuid/[0-9a-f]{2}/[0-9a-f]{30}|uuid/XX/REST|g'; }
tmps() { find "$1" -name '*.tmp-*' | grep -q . && echo "$2: temporary file left" || true; }
tracetool symbolicate --add-to-store st libfx.so | hide
tracetool symbolicate --add-to-store st libfx.so | hide
f=$(find st -type f)
echo "stored again: $(find st -type f | wc -l) file, $(stat -c %h "$f") links"
tmps st "again"
# a copy: from another file system when /dev/shm is one (else a plain copy of the file)
src=$TT_TMP/symfx/copy.so
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d .)" ]; then
    src=$(mktemp /dev/shm/tt-store-XXXXXX)
fi
cp libfx.so "$src"
tracetool symbolicate --add-to-store st2 "$src" > /dev/null
g=$(find st2 -type f)
cmp -s libfx.so "$g" && echo "copy: same bytes"
cp "$g" before
(trap '' XFSZ; ulimit -f 4; tracetool symbolicate --add-to-store st2 "$src" 2>&1 > /dev/null) |
    sed "s|$src|SRC|" | hide
[ -f "$src" ] && [ "$src" != "$TT_TMP/symfx/copy.so" ] && rm -f "$src"
cmp -s before "$g" && echo "failed copy: entry byte-identical"
tmps st2 "failed copy"
# Mach-O: a dSYM slice replaces the binary's; a failed write keeps the binary's
cd "$data"
tracetool symbolicate --add-to-store "$TT_TMP/ms" macho/app | sed "s|$TT_TMP|TMP|" | hide
m=$(find "$TT_TMP/ms" -type f)
cp "$m" "$TT_TMP/m.before"
(trap '' XFSZ; ulimit -f 4; tracetool symbolicate --add-to-store "$TT_TMP/ms" macho/app.dSYM 2>&1 > /dev/null) | sed "s|$TT_TMP|TMP|" | hide
cmp -s "$TT_TMP/m.before" "$m" && echo "failed dSYM: binary's entry byte-identical"
tmps "$TT_TMP/ms" "failed dSYM"
tracetool symbolicate --add-to-store "$TT_TMP/ms" macho/app.dSYM > /dev/null && cmp -s macho/app.dSYM/Contents/Resources/DWARF/app "$m" && echo "dSYM: stored"
tmps "$TT_TMP/ms" "dSYM"
# a temporary file left by a killed run is not an entry: the scan of the store skips it
mkdir -p "$TT_TMP/ms3/uuid/4c"
cp "$m" "$TT_TMP/ms3/uuid/4c/4c44af55553144a1bcc437781a73d8.macho.tmp-99-0"
out=$(tracetool symbolicate --symbols "$TT_TMP/ms3" --uuid 4C4C44AF-5555-3144-A1BC-C437781A73D8 \
    -f -p 0x100004050 2>&1)
echo "left-over temporary file: exit $?: $out" | sed "s|$TT_TMP|TMP|"
