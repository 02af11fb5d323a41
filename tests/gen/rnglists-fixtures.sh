#!/bin/sh
# Rebuilds the corrupt DWARF 5 range-list fixtures tests/data/rnglists-*.so (libsym's guards
# of libdwarf 20210528, which crashes on them): clang-14 -gdwarf-5 puts DW_FORM_rnglistx
# ranges on the inlined calls of tests/gen/rnglists/rx.c; then one byte range is patched.
#   rnglists-offset.so  offsets-array entry 1 of .debug_rnglists = 0x7ffffff0 (SIGSEGV)
#   rnglists-header.so  table header version/address size/segment size = ff ff ff 7f
#                       (double free while libdwarf loads .debug_info)
#   rnglists-count.so   offset_entry_count = 0x7fffffff
# Run from the repository root: sh tests/gen/rnglists-fixtures.sh
set -eu
w=/tmp/tt-rnglists-fixtures
rm -rf "$w" && mkdir -p "$w"
cp tests/gen/rnglists/rx.c "$w"/
(cd "$w" && clang-14 -gdwarf-5 -O2 -fPIC -shared -fdebug-prefix-map="$w"=/src -o rx.so rx.c)
python3 - "$w/rx.so" tests/data <<'PY'
import struct, subprocess, sys
src, out = sys.argv[1], sys.argv[2]
d = bytes(open(src, "rb").read())
sh = subprocess.run(["llvm-readelf-14", "-S", "-W", src], capture_output=True, text=True).stdout
off = [int(l.split()[4 if l.split()[1] != "]" else 5], 16) for l in sh.splitlines()
       if ".debug_rnglists" in l][0]
for name, at, val in (("offset", off + 12 + 4, 0x7ffffff0), ("header", off + 4, 0x7fffffff),
                      ("count", off + 8, 0x7fffffff)):
    a = bytearray(d)
    struct.pack_into("<I", a, at, val)
    open("%s/rnglists-%s.so" % (out, name), "wb").write(a)
PY
