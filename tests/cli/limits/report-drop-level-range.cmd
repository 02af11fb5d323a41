sed -n 10p ../../samples/reports.jsonl | sed 's/"DROPPED_FROZEN":0/"DROPPED_FROZEN":9223372036854775807/' > "$TT_TMP/r.jsonl"; tracetool report "$TT_TMP/r.jsonl" 2>&1 | sed "s|$TT_TMP|TMP|g"
