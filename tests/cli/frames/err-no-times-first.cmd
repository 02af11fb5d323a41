tracetool frames frames-no-times-first.jsonl; echo "frames: exit $?"; tracetool analyze -o "$TT_TMP/t.db" frames-no-times-first.jsonl; echo "analyze: exit $?"
