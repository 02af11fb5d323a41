tracetool frames --format json fps-reports-shuffled.jsonl > "$TT_TMP/a.json" && tac fps-reports-shuffled.jsonl | tracetool frames --format json - | cmp - "$TT_TMP/a.json" && cat "$TT_TMP/a.json"
