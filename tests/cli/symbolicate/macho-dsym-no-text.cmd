python3 -c '
import struct, sys
b = bytearray(open("macho/app.dSYM/Contents/Resources/DWARF/app", "rb").read())
ncmds = struct.unpack_from("<I", b, 16)[0]; off = 32
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<II", b, off)
    if cmd == 0x19 and b[off + 8:off + 15] == b"__TEXT\0":
        b[off + 8:off + 15] = b"__TEXX\0"
    off += size
open(sys.argv[1], "wb").write(b)' "$TT_TMP/app-no-text" && tracetool symbolicate --uuid 4c4c44af55553144a1bcc437781a73d8 --dsym "$TT_TMP/app-no-text" 0x100004000 2>&1 | sed "s|$TT_TMP|TMP|g"
