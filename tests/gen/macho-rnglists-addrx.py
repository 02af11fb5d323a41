#!/usr/bin/env python3
"""Writes tests/data/macho/corrupt-rnglists-addrx.macho: a minimal arm64 MH_DSYM whose DWARF 5
unit has a subprogram with DW_AT_ranges (DW_FORM_sec_offset) naming a range list that starts
with DW_RLE_base_addressx of index 5, outside its one-address .debug_addr. libdwarf 20210528
leaks an error object in dwarf_rnglists_get_rle_head on it (found by fuzz_macho). The unit's
DW_AT_language has DW_FORM_indirect, a form die.c leaves to libdwarf, so that the libdwarf
walk reads the unit. Run from the repository root: python3 tests/gen/macho-rnglists-addrx.py"""
import struct

ABBREV = bytes([
    0x01, 0x11, 0x01,            # 1 compile_unit, children
    0x13, 0x16,                  #   language, indirect
    0x74, 0x17,                  #   rnglists_base, sec_offset
    0x73, 0x17,                  #   addr_base, sec_offset
    0x00, 0x00,
    0x02, 0x2e, 0x00,            # 2 subprogram, no children
    0x03, 0x08,                  #   name, string
    0x55, 0x17,                  #   ranges, sec_offset
    0x00, 0x00,
    0x00])

# unit: version 5, DW_UT_compile, address size 8, abbreviations at 0
die = bytes([0x01, 0x0b, 0x0c]) + struct.pack("<II", 0x0c, 8)   # language C99 as data1
die += bytes([0x02]) + b"f\0" + struct.pack("<I", 0x10) + bytes([0x00])
body = struct.pack("<HBBI", 5, 1, 8, 0) + die
INFO = struct.pack("<I", len(body)) + body

# one table: offsets array at 0x0c (one entry), its list at 0x10
lst = bytes([0x01, 0x05,         # DW_RLE_base_addressx 5 (.debug_addr holds index 0 only)
             0x04, 0x00, 0x10,   # DW_RLE_offset_pair 0, 0x10
             0x00])              # DW_RLE_end_of_list
tbl = struct.pack("<HBBI", 5, 8, 0, 1) + struct.pack("<I", 4) + lst
RNGLISTS = struct.pack("<I", len(tbl)) + tbl

ADDR = struct.pack("<IHBB", 12, 5, 8, 0) + struct.pack("<Q", 0x100000000)  # base 8

sects = [(b"__debug_info", INFO), (b"__debug_abbrev", ABBREV), (b"__debug_rnglists", RNGLISTS),
         (b"__debug_addr", ADDR)]
uuid_cmd = struct.pack("<II", 0x1b, 24) + bytes(range(0x40, 0x50))
text_cmd = struct.pack("<II16sQQQQiiII", 0x19, 72, b"__TEXT", 0x100000000, 0x100000, 0, 0, 5, 5,
                       0, 0)
dwarf_size = 72 + 80 * len(sects)
hdr_size = 32 + len(uuid_cmd) + len(text_cmd) + dwarf_size
data, off, sect_cmds = b"", hdr_size, b""
for name, blob in sects:
    sect_cmds += struct.pack("<16s16sQQIIIIIIII", name, b"__DWARF", 0, len(blob), off + len(data),
                             0, 0, 0, 0, 0, 0, 0)
    data += blob
dwarf_cmd = struct.pack("<II16sQQQQiiII", 0x19, dwarf_size, b"__DWARF", 0, len(data), hdr_size,
                        len(data), 7, 3, len(sects), 0) + sect_cmds
cmds = uuid_cmd + text_cmd + dwarf_cmd
header = struct.pack("<IiiIIIII", 0xfeedfacf, 0x0100000c, 0, 10, 3, len(cmds), 0, 0)
with open("tests/data/macho/corrupt-rnglists-addrx.macho", "wb") as f:
    f.write(header + cmds + data)
