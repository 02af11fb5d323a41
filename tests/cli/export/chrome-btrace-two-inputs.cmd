cp ../../samples/sampling.bin ../../samples/sampling-mapping.bin "$TT_TMP/" && cd "$TT_TMP" && cp sampling.bin again.bin && tracetool export --format chrome sampling.bin again.bin sampling-mapping.bin 2>/dev/null | python3 -c "
import json, sys, collections
ev = json.load(sys.stdin)['traceEvents']
n = collections.Counter((e['pid'], e['tid']) for e in ev if e['ph'] == 'X')
print('slices per (pid, tid):', sorted(n.items()))
print('processes:', sorted((e['pid'], e['args']['name']) for e in ev if e.get('name') == 'process_name'))
print('thread names:', len([e for e in ev if e.get('name') == 'thread_name']), 'for', len(n), 'tracks')"; tracetool export --format chrome sampling.bin sampling-mapping.bin 2>/dev/null | python3 -c "
import json, sys, collections
ev = json.load(sys.stdin)['traceEvents']
print('one input:', sorted(collections.Counter((e['pid'], e['tid']) for e in ev if e['ph'] == 'X').items()))"
