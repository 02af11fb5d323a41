head -30 report-mapping.txt > "$TT_TMP/short.txt" && tracetool report --format jsonl -m "$TT_TMP/short.txt" ../../samples/reports.jsonl | wc -l
