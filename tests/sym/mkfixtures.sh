#!/bin/sh
# Builds the symbolication fixtures into OUT (spec/symbolication.md 9.4 layouts) from
# tests/sym/*.c*: gcc and clang, -O2 -g, DWARF 4 and 5, PIE and non-PIE, a shared object,
# C++ templates, clang -gline-tables-only, 64-bit DWARF, stripped + .gnu_debuglink, a
# .build-id store, zlib-compressed sections (SHF_COMPRESSED and legacy .zdebug_), symbol
# table only, 32-bit and big-endian objects, and broken files. Reused when OUT is newer than the sources.
# Usage: mkfixtures.sh OUT   (prints nothing on success)
set -eu
out=$1
src=$(cd "$(dirname "$0")" && pwd)
stamp=$out/.stamp
if [ -f "$stamp" ] && [ -z "$(find "$src" -newer "$stamp" -name '*.c*' -o -newer "$stamp" -name '*.sh' | head -1)" ]; then
    exit 0
fi
mkdir -p "$out"
cd "$out"
rm -rf dl store store2 bare split
have() { command -v "$1" >/dev/null 2>&1; }
# gcc family (required: binutils comes with it)
gcc -fdebug-prefix-map="$out"=/fx -O2 -g -gdwarf-5 -o g5 "$src/inline.c" &
gcc -fdebug-prefix-map="$out"=/fx -O2 -g -gdwarf-4 -no-pie -o g4 "$src/inline.c" &
wait
gcc -fdebug-prefix-map="$out"=/fx -O2 -g -gdwarf-5 -gdwarf64 -o g64 "$src/inline.c"
gcc -fdebug-prefix-map="$out"=/fx -O2 -g -shared -fPIC -o libfx.so "$src/lib.c" &
gcc -fdebug-prefix-map="$src"=/src -O2 -g -shared -fPIC -o libb.so "$src/b.c" &
if have g++; then g++ -fdebug-prefix-map="$out"=/fx -O2 -g -o t5 "$src/tmpl.cc"; fi &
if have g++; then g++ -fdebug-prefix-map="$out"=/fx -O2 -g -o t6 "$src/lambda.cc"; fi &
if have g++; then g++ -fdebug-prefix-map="$out"=/fx -O2 -g -o t7 "$src/lambda_clone.cc"; fi &
if have g++; then g++ -fdebug-prefix-map="$out"=/fx -O0 -g -o t8 "$src/lambda.cc"; fi &
wait
if have clang; then
    clang -fdebug-prefix-map="$out"=/fx -O2 -g -gdwarf-5 -o c5 "$src/inline.c" &
    clang -fdebug-prefix-map="$out"=/fx -O2 -g -gdwarf-4 -o c4 "$src/inline.c" &
    wait
    if have clang++; then clang++ -fdebug-prefix-map="$out"=/fx -O2 -g -o tc "$src/tmpl.cc"; fi
    # line tables only: a CU DIE and its lines, no subprogram DIEs (nothing inlined at -O0)
    clang -fdebug-prefix-map="$out"=/fx -O0 -gline-tables-only -o lt0 "$src/lt.c"
    # 32-bit little-endian and 64-bit big-endian relocatable objects
    clang -fdebug-prefix-map="$out"=/fx --target=i386-linux-gnu -O2 -g -c -o le32.o "$src/lib.c" 2>/dev/null || true
    clang -fdebug-prefix-map="$out"=/fx --target=s390x-linux-gnu -O2 -g -c -o be64.o "$src/lib.c" 2>/dev/null || true
fi
# split DWARF: functions in split/s.dwo (named relative to the build directory), lines in s5;
# n5 the same source without -gsplit-dwarf (the same code); s4/n4 GNU's DWARF 4 form;
# cs5/cn5 clang's; ts/tn and cts/ctn C++ with type units; dwp/ the same binaries with .dwp packages instead of .dwo files;
# splitmiss/ a deleted .dwo, splitmm/ a .dwo of another build (another dwo_id),
# splitstore/ the .dwo only in a symbol store directory (st/), splitmoved/ see below
rm -rf splitmiss splitmm splitstore dwp
mkdir -p split splitmiss splitmm splitstore/st dwp
(cd split && gcc -O2 -g -gsplit-dwarf -c "$src/inline.c" -o s.o && gcc -o s5 s.o &&
    gcc -O2 -g -c "$src/inline.c" -o n.o && gcc -o n5 n.o &&
    gcc -O2 -g -gdwarf-4 -gsplit-dwarf -c "$src/inline.c" -o s4.o && gcc -o s4 s4.o &&
    gcc -O2 -g -gdwarf-4 -c "$src/inline.c" -o n4.o && gcc -o n4 n4.o)
# type units in the .dwo (gcc: one .debug_info.dwo section per type unit; clang: one section)
if have g++; then
    (cd split && g++ -O2 -g -gsplit-dwarf -fdebug-types-section -c "$src/tmpl.cc" -o ts.o &&
        g++ -o ts ts.o && g++ -O2 -g -fdebug-types-section -c "$src/tmpl.cc" -o tn.o &&
        g++ -o tn tn.o)
fi
if have clang++-14; then
    (cd split && clang++-14 -O2 -g -gsplit-dwarf -fdebug-types-section -c "$src/tmpl.cc" -o cts.o &&
        clang++-14 -o cts cts.o && clang++-14 -O2 -g -fdebug-types-section -c "$src/tmpl.cc" -o ctn.o &&
        clang++-14 -o ctn ctn.o)
fi
if have clang-14; then
    (cd split && clang-14 -O2 -g -gdwarf-5 -gsplit-dwarf -c "$src/inline.c" -o cs.o &&
        clang-14 -o cs5 cs.o && clang-14 -O2 -g -gdwarf-5 -c "$src/inline.c" -o cn.o &&
        clang-14 -o cn5 cn.o)
    if have llvm-dwp-14; then
        (cd dwp && cp ../split/cs.o . && clang-14 -o cs5 cs.o && cp ../split/cs.dwo . &&
            llvm-dwp-14 -e cs5 -o cs5.dwp && rm cs.dwo cs.o)
    fi
fi
# binutils dwp packages GNU's DWARF 4 (it crashes on DWARF 5)
if have dwp; then
    (cd dwp && cp ../split/s4.o . && gcc -o s4 s4.o && cp ../split/s4.dwo . &&
        dwp -e s4 -o s4.dwp && rm s4.dwo s4.o)
fi
(cd splitmiss && gcc -O2 -g -gsplit-dwarf -c "$src/inline.c" -o s.o && gcc -o s5 s.o && rm s.dwo)
(cd splitmm && gcc -O2 -g -gsplit-dwarf -c "$src/inline.c" -o s.o && gcc -o s5 s.o &&
    gcc -O1 -g -gsplit-dwarf -c "$src/inline.c" -o other.o && mv other.dwo s.dwo)
(cd splitstore && gcc -O2 -g -gsplit-dwarf -c "$src/inline.c" -o s.o && gcc -o s5 s.o &&
    mv s.dwo st/)
# splitmoved/: the binary and its .dwo moved out of the build directory (comp_dir is gone)
rm -rf splitmoved && mkdir -p splitmoved/b
(cd splitmoved/b && gcc -O2 -g -gsplit-dwarf -c "$src/inline.c" -o s.o && gcc -o s5 s.o &&
    mv s5 s.dwo .. && cd .. && rm -rf b)
# stripped binary + .gnu_debuglink beside it
mkdir -p dl store/.build-id store2/.build-id bare
objcopy --only-keep-debug g5 dl/g5.debug
(cd dl && objcopy --strip-debug --add-gnu-debuglink=g5.debug ../g5 g5)
# build-id store: debug file under .build-id, the fully stripped binary elsewhere
bid=$(readelf -n g5 | sed -n 's/.*Build ID: *//p')
mkdir -p "store/.build-id/$(echo "$bid" | cut -c1-2)"
cp dl/g5.debug "store/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
strip -o bare/g5 g5
# a store whose file for g5's build id is another build (g4's debug info)
objcopy --only-keep-debug g4 g4.debug
mkdir -p "store2/.build-id/$(echo "$bid" | cut -c1-2)"
cp g4.debug "store2/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-).debug"
# plain file names in a store
mkdir -p store/arm64-v8a
cp libfx.so store/arm64-v8a/libfx.so
# zlib-compressed debug sections, symbol table only, no symbols at all
objcopy --compress-debug-sections=zlib g5 z5
objcopy --compress-debug-sections=zlib-gnu g5 zg5
# zstd (binutils 2.40; an objcopy built without zstd makes no file, and its tests skip)
objcopy --compress-debug-sections=zstd g5 zs5 2>/dev/null || rm -f zs5
objcopy --compress-debug-sections=zstd le32.o zs32.o 2>/dev/null || rm -f zs32.o
strip -g -o nodebug g5
# broken inputs
printf 'not an ELF file\n' > notelf
head -c 300 g5 > trunc
head -c 4096 /dev/zero | tr '\0' '\377' > junk.bin
objcopy --update-section .debug_info=junk.bin g5 corrupt
objcopy --update-section .debug_line=junk.bin g5 badline
printf '%s\n' "$bid" > g5.buildid
touch "$stamp"
