#!/bin/sh
# Layering rules of STYLE.md section 2, checked on #include lines.
fail=0
bad() { echo "check-layers: $1"; fail=1; }
grep -l '#include.*\.\./cli/\|#include "cli' libtrace/*.c libtrace/*.h libsym/*.[ch] sqlite/*.[ch] 2>/dev/null | while read -r f; do bad "$f includes cli/"; done
for f in libtrace/*.c libtrace/*.h; do
    grep -q '#include.*\(sqlite3\|libdwarf\|libelf\|tsym\|tdb\)\.h' "$f" && bad "$f: libtrace may use only libc, zlib, jansson"
done
for f in libsym/*.c libsym/*.h; do
    [ -f "$f" ] || continue
    grep -q '#include.*\(sqlite3\|tdb\)\.h' "$f" && bad "$f: libsym may not use sqlite"
    case "$f" in libsym/dwarf.c) ;; *) grep -q '#include.*libdwarf.h\|#include.*dwarf.h' "$f" && bad "$f: only libsym/dwarf.c includes libdwarf" ;; esac
done
for f in libtrace/*.c libsym/*.c cli/*.c; do
    [ -f "$f" ] || continue
    grep -qi '"\s*\(select\|insert\|create table\|update\|delete from\)\s' "$f" && bad "$f: SQL outside sqlite/"
done
for f in libtrace/*.c libsym/*.c sqlite/*.c; do
    [ -f "$f" ] || continue
    grep -q '\b\(printf\|puts\|exit\|abort\|getenv\)\s*(' "$f" && grep -n '\b\(printf\|puts\|exit\|abort\|getenv\)\s*(' "$f" | grep -v 'snprintf\|vsnprintf\|tt_buf_printf\|sqlite3_' | grep -q . && bad "$f: libraries never print, exit, abort or read the environment"
done
exit $fail
