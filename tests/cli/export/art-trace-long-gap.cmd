tracetool export --format art-trace -o "$TT_TMP/out.trace" art-export-long-gap.jsonl; echo "exit $?"; ls "$TT_TMP"
