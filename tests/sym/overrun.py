#!/usr/bin/env python3
"""overrun.py SRC DST NAME[,NAME...]: copies the 64-bit little-endian ELF file SRC to DST
with the size of each named section header grown by the file's size, so that its bytes run
past the end of the file (a truncated download, a corrupt header); the other sections stay
intact. Used by the symbolicate goldens of sections past the end of the file."""
import struct
import sys

src, dst, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
d = bytearray(open(src, "rb").read())
shoff = struct.unpack_from("<Q", d, 0x28)[0]
es, n, si = struct.unpack_from("<HHH", d, 0x3A)
so = struct.unpack_from("<Q", d, shoff + si * es + 0x18)[0]
hit = 0
for i in range(n):
    h = shoff + i * es
    nm = struct.unpack_from("<I", d, h)[0]
    name = d[so + nm:d.index(b"\0", so + nm)].decode()
    if name in names:
        sz = struct.unpack_from("<Q", d, h + 0x20)[0]
        struct.pack_into("<Q", d, h + 0x20, sz + len(d))
        hit += 1
if hit != len(names):
    sys.exit("overrun.py: not every section was found: %s" % names)
open(dst, "wb").write(d)
