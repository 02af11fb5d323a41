#!/bin/sh
# Builds lib.c as OUT/libedge.so (-O0 -g, PIC) and exe.c as OUT/exe (non-PIE), and writes
# from nm: OUT/kernel.txt (perf script samples taken in the kernel: the first user frame
# after [kernel.kallsyms] frames is the interrupted pc at lib_other's first byte),
# OUT/nog.txt (perf script without call graphs: the frame on the header line) and
# OUT/base.jsonl (JSON-lines frames by runtime addr and module base, and by rel_pc).
# Usage: mk.sh OUT  (prints nothing)
set -eu
out=$1
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
if [ ! -f "$out/.stamp" ] || [ "$src/mk.sh" -nt "$out/.stamp" ] || [ "$src/lib.c" -nt "$out/.stamp" ] ||
    [ "$src/exe.c" -nt "$out/.stamp" ]; then
    gcc -fdebug-prefix-map="$src"=/src -O0 -g -fPIC -shared -o "$out/libedge.so" "$src/lib.c" &
    gcc -fdebug-prefix-map="$src"=/src -O0 -g -no-pie -o "$out/exe" "$src/exe.c" &
    wait
    touch "$out/.stamp"
fi
at() { nm "$out/$1" | awk -v f="$2" '$3 == f { print $1 }'; }
O=$(at libedge.so lib_other) P=$(at libedge.so lib_pad)
base=0x7f0000000000
so=/opt/lib/libedge.so
{
    printf 'prog  100 1.000000: PERF_RECORD_MMAP2 100/100: [0x7f0000000000(0x4000) @ 0 fe:00 1 0]: r-xp %s\n' "$so"
    # in the kernel, then the interrupted pc at lib_other+0 and its caller
    printf 'prog   100     1.000100:     250000 cpu-clock:\n'
    printf '\tffffffff821f39e5 irqentry_exit_to_user_mode+0x105 ([kernel.kallsyms])\n'
    printf '\tffffffff81000e06 asm_sysvec_apic_timer_interrupt+0x16 ([kernel.kallsyms])\n'
    printf '\t    %x [unknown] (%s)\n' $((base + 0x$O)) "$so"
    printf '\t    %x [unknown] (%s)\n\n' $((base + 0x$O + 8)) "$so"
    # in user code: the same address as a return address (looked up at lib_other - 1)
    printf 'prog   100     1.000200:     250000 cpu-clock:\n'
    printf '\t    %x [unknown] (%s)\n' $((base + 0x$P + 4)) "$so"
    printf '\t    %x [unknown] (%s)\n\n' $((base + 0x$O)) "$so"
    # a kernel module frame under the kernel, then user code
    printf 'prog   100     1.000300:     250000 cpu-clock:\n'
    printf '\tffffffffc0a01234 nf_hook+0x14 ([nf_conntrack])\n'
    printf '\tffffffff81000e06 do_syscall_64+0x16 ([kernel.kallsyms])\n'
    printf '\t    %x [unknown] (%s)\n\n' $((base + 0x$O)) "$so"
} > "$out/kernel.txt"
{
    printf '             prog   100 1.000000: PERF_RECORD_MMAP2 100/100: [0x7f0000000000(0x4000) @ 0 fe:00 1 0]: r-xp %s\n' "$so"
    printf '             prog   100 1.000100:     250000 cpu-clock:      %x [unknown] (%s)\n' $((base + 0x$O)) "$so"
    printf '             beef   101 1.000150:     250000 cpu-clock:      %x [unknown] (%s)\n' $((base + 0x$P + 4)) "$so"
    printf '             prog   100 1.000200:     250000 cpu-clock:  ffffffff81000e06 do_syscall_64+0x16 ([kernel.kallsyms])\n'
} > "$out/nog.txt"
W=$(at exe work)
{
    printf '{"kind":"meta","format":"tracetool-samples","version":1,"pid":1,"process":"exe","clock":"boottime"}\n'
    printf '{"kind":"module","name":"exe","path":"/opt/bin/exe","base":"0x7b1c000000","size":"0x5000"}\n'
    printf '{"ts_ns":1000,"tid":1,"frames":[{"module":"exe","addr":"0x%x"}]}\n' $((0x7b1c000000 + 0x$W - 0x400000 + 4))
    printf '{"ts_ns":2000,"tid":1,"frames":[{"module":"exe","rel_pc":"0x%x"}]}\n' $((0x$W))
} > "$out/base.jsonl"
