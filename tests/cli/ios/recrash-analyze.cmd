tracetool analyze -o "$TT_TMP/r.db" ios-recrash.json >/dev/null && tracetool query "$TT_TMP/r.db" "select json_extract(raw_json, '$.report.id'), detail, stack_key from issue order by id"
