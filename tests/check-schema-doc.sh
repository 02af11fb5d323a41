#!/bin/sh
# Every table and column of the compiled schema (sqlite/schema.sql) and every view is
# documented in man/tracetool-schema.5. Run from tests/data (the golden-test cwd).
page=../../man/tracetool-schema.5
st=0
awk '/^CREATE TABLE/{t=$3; print "table " t; next} /^\)/{t=""; next}
     t && $1 ~ /^[a-z_]+$/ && $1 != "PRIMARY" && $1 != "UNIQUE" {print "column " t "." $1}
     t {n=split($0, a, ","); for (i = 2; i <= n; i++) { split(a[i], w, " "); if (w[1] ~ /^[a-z_]+$/ && w[2] ~ /^(INTEGER|TEXT|REAL)$/) print "column " t "." w[1] }}' \
    ../../sqlite/schema.sql > /tmp/schema-items.$$
grep -o 'CREATE VIEW [a-z_]*' ../../sqlite/views.sql | sed 's/CREATE VIEW /view /' >> /tmp/schema-items.$$
n=0
while read -r what name; do
    n=$((n + 1))
    case $what in
    table|view) grep -q "^\.[SB][SB]* $name\$" "$page" || { echo "undocumented $what $name"; st=1; } ;;
    column)
        t=${name%%.*}; c=${name#*.}
        awk -v t="$t" -v c="$c" '/^\.SS /{cur=$2} cur==t && $0==".B " c {f=1} END{exit !f}' "$page" ||
            { echo "undocumented column $name"; st=1; } ;;
    esac
done < /tmp/schema-items.$$
rm -f /tmp/schema-items.$$
[ $st = 0 ] && echo "schema documentation: $n items, all documented"
exit $st
