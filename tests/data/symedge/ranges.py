# Writes OUT.s: a static program whose one function "work" (DWARF 4, DW_AT_ranges) has
# N one-byte ranges that abut, listed in ascending order, then a function "other", then
# the cold part of "work": M abutting ranges listed in descending order and one range
# overlapping two of them. StartAddress (spec/symbolication.md 8.2) of an address in the
# first group is work's start, in the cold group the cold part's (labels cold, hot_end).
# Usage: python3 ranges.py OUT N M
import sys

out, n, m = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
s = ['.text\n.globl _start\n.type _start,@function\n_start:\n']
s += ['.Lr%d: nop\n' % i for i in range(n)]
s.append('.globl hot_end\nhot_end: ret\n.size _start, .-_start\n')
s.append('.globl other\n.type other,@function\nother: nop\nnop\nret\n.size other, .-other\n')
s.append('.globl cold\ncold:\n')
s += ['.Lc%d: nop\n' % i for i in range(m)]
s.append('.Lc%d: ret\n' % m)
s.append('''.section .debug_abbrev,"",@progbits
.uleb128 1
.uleb128 0x11
.byte 1
.uleb128 0x11
.uleb128 0x01
.uleb128 0x55
.uleb128 0x17
.byte 0,0
.uleb128 2
.uleb128 0x2e
.byte 0
.uleb128 0x3
.uleb128 0x8
.uleb128 0x55
.uleb128 0x17
.byte 0,0
.byte 0
.section .debug_info,"",@progbits
.long .Linfo_end-.Linfo_start
.Linfo_start:
.short 4
.long .debug_abbrev
.byte 8
.uleb128 1
.quad 0
.long .Lcu_ranges
.uleb128 2
.asciz "work"
.long .Lfn_ranges
.byte 0
.Linfo_end:
.section .debug_ranges,"",@progbits
.Lcu_ranges:
.quad _start, .Lc%d+1
.quad 0,0
.Lfn_ranges:
''' % m)
s += ['.quad .Lr%d, .Lr%d\n' % (i, i + 1) for i in range(n - 1)]
s.append('.quad .Lr%d, hot_end+1\n' % (n - 1))
s += ['.quad .Lc%d, .Lc%d\n' % (i, i + 1) for i in reversed(range(m))]
s.append('.quad .Lc%d, .Lc%d+1\n' % (m - 3, m))
s.append('.quad 0,0\n')
open(out + '.s', 'w').write(''.join(s))
