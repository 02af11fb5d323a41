#!/bin/sh
# Every table and column of the compiled schema (sqlite/schema.sql) and every view is
# documented in man/tracetool-schema.5. Run from tests/data (the golden-test cwd).
page=../../man/tracetool-schema.5
st=0
awk '/^CREATE TABLE/{t=$3; print "table " t; next} /^\)/{t=""; next}
     t && $1 ~ /^[a-z_0-9]+$/ && $1 != "PRIMARY" && $1 != "UNIQUE" {print "column " t "." $1}
     t {n=split($0, a, ","); for (i = 2; i <= n; i++) { split(a[i], w, " "); if (w[1] ~ /^[a-z_0-9]+$/ && w[2] ~ /^(INTEGER|TEXT|REAL)$/) print "column " t "." w[1] }}' \
    ../../sqlite/schema.sql > /tmp/schema-items.$$
grep -o 'CREATE VIEW [a-z_]*' ../../sqlite/views.sql | sed 's/CREATE VIEW /view /' >> /tmp/schema-items.$$
sed -n 's/^CREATE \(UNIQUE \)*INDEX \(IF NOT EXISTS \)*\([a-z_]*\) .*/index \3/p' \
    ../../sqlite/schema.sql ../../sqlite/indexes.sql >> /tmp/schema-items.$$
n=0
while read -r what name; do
    n=$((n + 1))
    case $what in
    table|view) grep -q "^\.[SB][SB]* $name\$" "$page" || { echo "undocumented $what $name"; st=1; } ;;
    index)
        awk -v i="$name" '/^\.SH /{s=$2} s=="INDEXES" && $0==".B " i {f=1} END{exit !f}' "$page" ||
            { echo "undocumented index $name"; st=1; } ;;
    column)
        t=${name%%.*}; c=${name#*.}
        awk -v t="$t" -v c="$c" '/^\.SS /{cur=$2} cur==t && $0==".B " c {f=1} END{exit !f}' "$page" ||
            { echo "undocumented column $name"; st=1; } ;;
    esac
done < /tmp/schema-items.$$
# each table's columns are documented in the table's order (.TP entries of its section)
sed -n 's/^column //p' /tmp/schema-items.$$ > /tmp/schema-order.$$
awk '/^\.SH /{if ($2 != "TABLES") t=""} /^\.SS /{t=$2} t && prev==".TP" && /^\.B [a-z_0-9]+$/ {print t "." $2} {prev=$0}' \
    "$page" > /tmp/schema-docorder.$$
for t in $(sed 's/\..*//' /tmp/schema-order.$$ | uniq); do
    a=$(grep "^$t\." /tmp/schema-order.$$ | tr '\n' ' ')
    b=$(grep "^$t\." /tmp/schema-docorder.$$ | tr '\n' ' ')
    [ "$a" = "$b" ] || { echo "table $t: columns documented as: $b"; echo "  the table has: $a"; st=1; }
done
rm -f /tmp/schema-items.$$ /tmp/schema-order.$$ /tmp/schema-docorder.$$
[ $st = 0 ] && echo "schema documentation: $n items, all documented"
exit $st
