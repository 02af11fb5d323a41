#!/usr/bin/env python3
"""check_png.py FILE W H: FILE is a PNG of W x H pixels whose pixels are not all equal
(browser screenshots, spec/visual.md 11). Decodes 8-bit RGB/RGBA PNGs with zlib only."""
import struct, sys, zlib

def main():
    path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        data = open(path, "rb").read()
    except OSError as e:
        print("check_png: %s" % e, file=sys.stderr)
        return 1
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        print("check_png: %s: not a PNG" % path, file=sys.stderr)
        return 1
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if not ihdr or (ihdr[0], ihdr[1]) != (w, h):
        print("check_png: %s: %s, expected %dx%d" % (path, ihdr and ihdr[:2], w, h), file=sys.stderr)
        return 1
    raw = zlib.decompress(idat)
    # not all equal: some scanline's bytes differ from the first pixel's (filters aside,
    # a uniform image compresses to rows of identical filtered bytes)
    stride = len(raw) // h
    rows = {raw[i * stride + 1:(i + 1) * stride] for i in range(0, h, max(1, h // 64))}
    flat = all(len(set(r)) <= 4 for r in rows) and len(rows) == 1
    if flat:
        print("check_png: %s: every pixel looks the same" % path, file=sys.stderr)
        return 1
    return 0

sys.exit(main())
