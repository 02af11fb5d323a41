tracetool export --format chrome ../../samples/sampling.bin ../../samples/sampling-mapping.bin ../../samples/samples.jsonl ../../samples/perf-fib.txt.gz 2>/dev/null | python3 -c "
import json, sys
ev = json.load(sys.stdin)['traceEvents']
print('threads (pid, tid):', sorted({(e['pid'], e['tid']) for e in ev if e['ph'] == 'X'}))
print('processes:', sorted((e['pid'], e['args']['name']) for e in ev if e.get('name') == 'process_name'))"; tracetool export --format folded --folded-root process ../../samples/samples.jsonl ../../samples/perf-fib.txt.gz | cut -d ';' -f 1 | sort | uniq -c
