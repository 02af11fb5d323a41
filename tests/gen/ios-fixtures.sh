#!/bin/sh
# Rebuilds the committed Mach-O fixtures of tests/data/macho/ (spec/ios.md 12) with the
# Debian packages clang-14, lld-14 and llvm-14 (apt-get install clang-14 lld-14 llvm-14),
# the commands exactly as ios.md 12.1 shows, plus gen_macho (tests/gen/gen_macho.c, built
# by `make`) for the DWARF 5 dSYM and the hostile containers. `make check` needs none of
# these tools: it uses the committed files. Run from the repository root after `make`:
#   sh tests/gen/ios-fixtures.sh [BUILD]
# Also records tests/data/macho/*.oracle: llvm-symbolizer-14 answers used as goldens.
set -eu
build=${1:-build}
top=$(pwd)
src=$top/tests/gen/ios
dst=$top/tests/data/macho
gen=$top/$build/gen/gen_macho
[ -x "$gen" ] || { echo "ios-fixtures.sh: run make first ($gen missing)" >&2; exit 1; }
w=/tmp/tt-ios-fixtures  # fixed path: lld's UUIDs hash the object paths of the debug map
rm -rf "$w"
mkdir -p "$w" "$dst"
cp "$src"/* "$w"/
cd "$w"
pm="-fdebug-prefix-map=$w=/src"
# iOS device executable (arm64) and its dSYM
clang-14 -target arm64-apple-ios14.0 $pm -g -O2 -c m.c -o m.o
clang-14 -target arm64-apple-ios14.0 $pm -g -O1 -fobjc-runtime=ios-14.0 -fblocks -c o.m -o o.o
clang-14 -target arm64-apple-ios14.0 $pm -g -O1 -c c.cc -o c.o 2>/dev/null
clang-14 -target arm64-apple-ios14.0 $pm -g -O1 -c main.c -o main.o
ld64.lld-14 -arch arm64 -platform_version ios 14.0 14.0 -e _main \
            -undefined dynamic_lookup -o app main.o m.o o.o c.o
dsymutil-14 app -o app.dSYM
# the same kind of link through the clang driver
clang-14 -target arm64-apple-ios14.0 $pm -fuse-ld=lld -nostdlib -Wl,-e,_main \
         -Wl,-platform_version,ios,14.0,14.0 -g -O2 -o single single.c
# iOS simulator slice and a universal binary
clang-14 -target x86_64-apple-ios14.0-simulator $pm -g -O2 -c m.c -o mx.o
clang-14 -target x86_64-apple-ios14.0-simulator $pm -g -O1 -c main-sim.c -o mainx.o
ld64.lld-14 -arch x86_64 -platform_version ios-simulator 14.0 14.0 -e _main -o appx mainx.o mx.o
llvm-lipo-14 -create app appx -output fat
mkdir -p bin && ln -sf "$(command -v llvm-lipo-14)" bin/lipo
PATH="$PWD/bin:$PATH" dsymutil-14 fat -o fat.dSYM
llvm-lipo-14 -thin arm64 fat -output fat_arm64
# framework dylib (__TEXT vmaddr 0) and its dSYM
ld64.lld-14 -arch arm64 -platform_version ios 14.0 14.0 -dylib \
            -install_name @rpath/Kit.framework/Kit -o Kit c.o
dsymutil-14 Kit -o Kit.framework.dSYM
# Swift-shaped DWARF (hand-written: Debian packages no Swift compiler; spec/ios.md 7)
clang-14 -target arm64-apple-ios14.0 -c swift.s -o swift.o
ld64.lld-14 -arch arm64 -platform_version ios 14.0 14.0 -e _main -o swiftapp swift.o
dsymutil-14 swiftapp -o swiftapp.dSYM
# C++ members defined in their class (DW_AT_specification), with full and line-tables-only
# debug information (ios 15.0: the reviewer's commands)
clang-14 -target arm64-apple-ios15.0 $pm -g -O2 -fno-exceptions -fno-rtti -c cxx.cc -o cxx.o 2>/dev/null
clang-14 -target arm64-apple-ios15.0 $pm -gline-tables-only -O2 -fno-exceptions -fno-rtti \
         -c cxx.cc -o cxxlt.o 2>/dev/null
ld64.lld-14 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup -o cxxapp cxx.o
ld64.lld-14 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup -o cxxlt cxxlt.o
dsymutil-14 cxxapp -o cxxapp.dSYM
dsymutil-14 cxxlt -o cxxlt.dSYM
# stripped variants (LC_UUID kept)
llvm-strip-14 -o app_stripped app
llvm-strip-14 -x -o app_x app
# DWARF 5 in a dSYM (ios.md 12.2): ELF blobs of the same source under Mach-O names
clang-14 -target aarch64-linux-gnu -fuse-ld=lld -nostdlib -Wl,-e,top -Wl,--image-base=0x100000000 \
         $pm -gdwarf-5 -O2 -o m5.elf m.c
args=""
for s in info abbrev line str str_offsets line_str addr rnglists loclists aranges; do
    if llvm-objcopy-14 --dump-section .debug_$s=d5_$s.bin m5.elf /dev/null 2>/dev/null; then
        args="$args $s=d5_$s.bin"
    fi
done
"$gen" dsym d5.dsym 5a5a5a5a-0000-4000-8000-000000000005 0x100000000 0x100000 $args
mkdir -p d5.dSYM/Contents/Resources/DWARF && cp d5.dsym d5.dSYM/Contents/Resources/DWARF/d5
# hostile containers
"$gen" hostile "$w/hostile"
# copy the results
rm -rf "$dst"/*.dSYM
cp -r app app.dSYM single appx fat fat.dSYM fat_arm64 Kit Kit.framework.dSYM app_stripped \
      app_x d5.dSYM m5.elf swiftapp swiftapp.dSYM cxxapp cxxapp.dSYM cxxlt cxxlt.dSYM "$dst"/
cp hostile/* "$dst"/
# reference answers (llvm-symbolizer-14, the oracle of ios.md 13)
cd "$dst"
llvm-nm-14 -n app > app.nm
llvm-nm-14 -n Kit > Kit.nm
llvm-nm-14 -n m5.elf > m5.nm
# every instruction of __text, and llvm-symbolizer-14's answers for them (the goldens)
addrs() { # FILE [ARCH]: one vmaddr per 4 bytes of __text
    llvm-objdump-14 -h ${2:+--arch=$2} "$1" | awk '$2=="__text"{print $3, $4}' |
        { read -r size vma; python3 -c "import sys; s,v=int(sys.argv[1],16),int(sys.argv[2],16); print(' '.join(hex(a) for a in range(v, v+s, 4)))" "$size" "$vma"; }
}
addrs app > app.addrs
addrs Kit > Kit.addrs
addrs fat x86_64 > appx.addrs
addrs single > single.addrs
addrs cxxapp > cxxapp.addrs
addrs cxxlt > cxxlt.addrs
printf '0x1000103a0 0x1000103a8 0x1000103b0 0x1000103c0 0x1000103d0 0x1000103e0 0x1000103e4 0x1000103f0\n' > d5.addrs
orc() { llvm-symbolizer-14 --inlining -C --output-style=JSON "$@"; }
orc --obj=app $(cat app.addrs) > app.oracle.json
orc --obj=Kit --dsym-hint=Kit.framework.dSYM $(cat Kit.addrs) > Kit.oracle.json
orc --obj=fat:x86_64 $(cat appx.addrs) > appx.oracle.json
orc --obj=fat:arm64 $(cat app.addrs) > fat-arm64.oracle.json
orc --obj=single $(cat single.addrs) > single.oracle.json
orc --obj=cxxapp $(cat cxxapp.addrs) > cxxapp.oracle.json
orc --obj=cxxlt $(cat cxxlt.addrs) > cxxlt.oracle.json
orc --obj=m5.elf $(cat d5.addrs) > d5.oracle.json
