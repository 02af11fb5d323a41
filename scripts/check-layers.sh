#!/bin/sh
# Layering rules of STYLE.md section 2, checked on #include lines and calls.
fail=0
bad() { echo "check-layers: $1"; fail=1; }
for f in libtrace/*.[ch] libsym/*.[ch] sqlite/*.[ch]; do
    [ -f "$f" ] || continue
    grep -q '#include.*\(\.\./cli/\|"cli\)' "$f" && bad "$f includes cli/ (nothing depends on cli/)"
done
for f in libtrace/*.[ch]; do
    [ -f "$f" ] || continue
    grep -q '#include.*\(sqlite3\|libdwarf\|libelf\|gelf\|tsym\|tdb\)\.h' "$f" &&
        bad "$f: libtrace may use only libc, zlib and jansson"
done
for f in libsym/*.[ch]; do
    [ -f "$f" ] || continue
    grep -q '#include.*\(sqlite3\|tdb\)\.h' "$f" && bad "$f: libsym may not use sqlite/"
    case "$f" in
    libsym/dwarf_int.h|libsym/dwarf.c|libsym/dwarf_attr.c|libsym/dwarf_range.c) ;;
    *) grep -q '#include.*[</"]\(libdwarf\|dwarf\|dwarf_int\)\.h' "$f" &&
        bad "$f: only libsym/dwarf.c, dwarf_attr.c and dwarf_range.c use libdwarf (dwarf_int.h)" ;;
    esac
done
for f in libtrace/*.c libsym/*.c cli/*.c; do
    [ -f "$f" ] || continue
    grep -qiE '"[[:space:]]*(select|insert into|create table|create view|delete from|update [a-z_]+ set)[[:space:]]' "$f" &&
        bad "$f: SQL outside sqlite/"
done
for f in libtrace/*.c libsym/*.c sqlite/*.c; do
    [ -f "$f" ] || continue
    if grep -nE '(^|[^_a-z])(printf|puts|fputs|fprintf|exit|abort|getenv)[[:space:]]*\(' "$f" |
        grep -vE 'snprintf|vsnprintf|tt_buf_printf' | grep -q .; then
        bad "$f: libraries never print, exit, abort or read the environment"
    fi
done
[ $fail = 0 ] && echo "check-layers: ok"
exit $fail
