#!/bin/sh
# Ignored methods (ignoreMethodMapping.txt) are shared rows of their mapping: merged once per
# distinct line, whatever the order of the merges; merge = one analyze; merging again adds
# nothing.
set -u
t=$TT_TMP/merge-ignored
rm -rf "$t" && mkdir -p "$t"
an() { tracetool analyze "$@" > /dev/null 2>&1; }
an -o "$t/a.db" -m an-map.txt -m an-ignore.txt an-v1.bin || echo "a failed"
an -o "$t/b.db" -m an-map.txt -m an-ignore.txt an-v1.txt || echo "b failed"
an -o "$t/c.db" -m an-map.txt -m an-ignore.txt -m an-ignore2.txt an-v1.txt.gz || echo "c failed"
an -o "$t/ab.db" -m an-map.txt -m an-ignore.txt an-v1.bin an-v1.txt || echo "ab failed"
tracetool merge -o "$t/m.db" "$t/a.db" "$t/b.db" > /dev/null
python3 ../cli/merge/dbcanon.py "$t/ab.db" "$t/m.db"
tracetool query --format csv "$t/m.db" "SELECT COUNT(*) AS traces FROM trace; SELECT mapping_id, class_name, method_name, descriptor FROM ignored_method ORDER BY id"
tracetool merge -o "$t/m_c.db" "$t/m.db" "$t/c.db" > /dev/null
tracetool merge -o "$t/c_ba.db" "$t/c.db" "$t/b.db" "$t/a.db" > /dev/null
python3 ../cli/merge/dbcanon.py "$t/m_c.db" "$t/c_ba.db"
cp "$t/m_c.db" "$t/again.db"
tracetool merge --append -o "$t/again.db" "$t/a.db" "$t/c.db" 2> /dev/null
python3 ../cli/merge/dbcanon.py "$t/m_c.db" "$t/again.db"
tracetool query --format csv "$t/c_ba.db" "SELECT m.path, COUNT(*) AS ignored FROM ignored_method i JOIN method_mapping m ON m.id = i.mapping_id GROUP BY i.mapping_id ORDER BY ignored; PRAGMA foreign_key_check"
