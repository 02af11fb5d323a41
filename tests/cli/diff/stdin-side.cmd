gzip -dc ../../samples/perf-fib.txt.gz | tracetool diff ../../samples/perf-fib.txt.gz - 2>&1 | head -3; tracetool diff - - < ../../samples/reports.jsonl 2>&1; echo "exit $?"
