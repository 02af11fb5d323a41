#!/bin/sh
# Build-variant survey (spec/symbolication.md 9.4): builds tests/sym/var_main.c (+ the shared
# library var_lib.c) and var.cc with gcc and clang in the layouts real toolchains produce
# (-g/-g1, DWARF 4/5, -O0/-O2, zlib/zstd sections, split DWARF with .dwo and .dwp, type
# units, LTO, PIE/non-PIE, stripped + .gnu_debuglink, stripped + .build-id store, dwz) and
# compares `tracetool symbolicate` with llvm-symbolizer-14 (tests/sym/variants.py).
# Usage: variants.sh OUT [--table] [VARIANT...]   exit 77 when gcc, clang or
# llvm-symbolizer-14 is missing. Without --table one verdict line per variant (golden test).
set -eu
out=$1; shift
table=
[ "${1:-}" = --table ] && { table=--table; shift; }
src=$(cd "$(dirname "$0")" && pwd)
have() { command -v "$1" >/dev/null 2>&1; }
for t in gcc g++ clang clang++ llvm-symbolizer-14 objcopy readelf nm python3; do
    have "$t" || { echo "variants: $t not installed" >&2; exit 77; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
all="gcc-O0 gcc-O2 gcc-g1 gcc-dwarf4 gcc-dwarf5 gcc-gz gcc-zstd gcc-split gcc-split-dwp
gcc-types4 gcc-types5 gcc-lto gcc-nopie gcc-debuglink gcc-buildid gcc-dwz
clang-O0 clang-O2 clang-g1 clang-dwarf4 clang-dwarf5 clang-gz clang-zstd clang-split
clang-split-dwp clang-types4 clang-types5 clang-lto clang-nopie clang-debuglink clang-buildid
clang-dwz gcc-dwzm clang-dwzm"
[ $# -gt 0 ] && all="$*"

# build NAME: compiles the three modules of one variant into $out/NAME (absolute paths, so
# .dwo files are found through DW_AT_comp_dir as a build tree would)
build() {
    v=$1 d=$out/$1
    rm -rf "$d" && mkdir -p "$d" && cd "$d"
    cc=${v%%-*}; cxx=g++; [ "$cc" = clang ] && cxx=clang++
    flags="-O2 -g"; ld=""; post=""
    case ${v#*-} in
    O0) flags="-O0 -g" ;;
    O2) ;;
    g1) flags="-O2 -g1" ;;
    dwarf4) flags="-O2 -g -gdwarf-4" ;;
    dwarf5) flags="-O2 -g -gdwarf-5" ;;
    gz) flags="-O2 -g -gz" ;;
    zstd) post=zstd ;;
    split) flags="-O2 -g -gsplit-dwarf" ;;
    split-dwp) flags="-O2 -g -gsplit-dwarf"; post=dwp ;;
    types4) flags="-O2 -g -gdwarf-4 -fdebug-types-section" ;;
    types5) flags="-O2 -g -gdwarf-5 -fdebug-types-section" ;;
    lto) flags="-O2 -g -flto"; [ "$cc" = clang ] && ld="-fuse-ld=lld" ;;
    nopie) flags="-O2 -g"; ld="-no-pie" ;;
    debuglink) post=debuglink ;;
    buildid) post=buildid ;;
    dwz) post=dwz ;;
    dwzm) post=dwzm ;;
    esac
    if [ "$v" = clang-lto ] && ! have ld.lld; then ld=""; fi
    $cc $flags -fPIC -c "$src/var_lib.c" -o var_lib.o
    $cc $flags $ld -shared -o libvar.so var_lib.o
    $cc $flags -c "$src/var_main.c" -o var_main.o
    $cc $flags $ld -o prog var_main.o -L. -lvar -Wl,-rpath,'$ORIGIN'
    $cxx $flags -c "$src/var.cc" -o var_cc.o
    $cxx $flags $ld -o progxx var_cc.o
    # split DWARF: the reference is the same code built without -gsplit-dwarf (NAME.ref),
    # as llvm-symbolizer-14 drops inline frames of clang's split units that it reports for
    # the same code in ordinary DWARF
    case $flags in *-gsplit-dwarf*)
        nf=$(echo "$flags" | sed 's/ -gsplit-dwarf//')
        mkdir -p ref && (cd ref &&
            $cc $nf -fPIC -c "$src/var_lib.c" -o var_lib.o && $cc $nf $ld -shared -o libvar.so var_lib.o &&
            $cc $nf -c "$src/var_main.c" -o var_main.o && $cc $nf $ld -o prog var_main.o -L. -lvar &&
            $cxx $nf -c "$src/var.cc" -o var_cc.o && $cxx $nf $ld -o progxx var_cc.o)
        for m in prog libvar.so progxx; do
            if cmp -s "$(objdump -d --no-show-raw-insn "$m" | tail -n +3 > "$m.t1" && echo "$m.t1")" \
                "$(objdump -d --no-show-raw-insn "ref/$m" | tail -n +3 > "$m.t2" && echo "$m.t2")"; then
                cp "ref/$m" "$m.ref"
            fi
            rm -f "$m.t1" "$m.t2"
        done
        rm -rf ref ;;
    esac
    for m in prog libvar.so progxx; do
        case $post in
        zstd) cp "$m" "$m.ref"; objcopy --compress-debug-sections=zstd "$m" ;;
        dwp) # binutils 2.40 dwp crashes on DWARF 5 and llvm-dwp-14 loops on gcc's: bounded
            { have llvm-dwp-14 && timeout 30 llvm-dwp-14 -e "$m" -o "$m.dwp"; } ||
                { have dwp && timeout 30 dwp -e "$m" -o "$m.dwp"; } ||
                { rm -f "$m.dwp"; echo "no dwp tool could package $m"; return 1; } ;;
        debuglink)
            cp "$m" "$m.ref"; objcopy --only-keep-debug "$m" "$m.debug"
            objcopy --strip-debug --add-gnu-debuglink="$m.debug" "$m.ref" "$m" ;;
        buildid)
            cp "$m" "$m.ref"; bid=$(readelf -n "$m" | sed -n 's/.*Build ID: *//p')
            mkdir -p "store/.build-id/$(echo "$bid" | cut -c1-2)"
            objcopy --only-keep-debug "$m" "store/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
            strip "$m" ;;
        dwz) cp "$m" "$m.ref"; dwz -q "$m" 2>/dev/null || true ;;
        dwzm) cp "$m" "$m.ref" ;;
        esac
    done
    # dwz -m as Debian's dh_dwz runs it: strings and DIEs the modules share move to one
    # supplementary file named by .gnu_debugaltlink (here relative to the modules)
    if [ "$post" = dwzm ]; then dwz -q -m common.debug -M common.debug prog libvar.so progxx || true; fi
    [ "$post" = dwp ] && rm -f ./*.dwo
    cd "$out"
}

for v in $all; do
    if [ "${v#*-dwz}" != "$v" ] && ! have dwz; then echo "$v: skipped (dwz not installed)"; continue; fi
    if ! build "$v" >"$out/$v.log" 2>&1; then
        echo "$v: build failed: $(tail -1 "$out/$v.log")"; continue
    fi
    python3 "$src/variants.py" "$out/$v" $table
done
