#!/bin/sh
# analyze(1) OUTPUT: the run-independent keys of the shared tables in --format jsonl rows
# (method by its mapping's sha256/retrace_sha256 and method_id, symbolized_pc by its module's
# build_id/name and rel_pc, symbol by its symbolized_pc's key and inline_depth, args by its
# owner row and key; here the owner as its table, its trace's import_key and its id in the
# run). Two runs with other mappings and other native addresses: every key
# column the page names is in every row, each key names one content across the runs, while
# the per-run ids alone (the keys the page gave before) name different rows.
set -u
t=$TT_TMP/an-jsonl-keys
rm -rf "$t" && mkdir -p "$t"
s=$PWD/../../samples
sh symprof/mk.sh "$t/sp" > /dev/null 2>&1 || echo "symprof failed"
gen_beat mapping -n 433 --seed 7 -o "$t/mapB.txt"
(cd "$t/sp" && tracetool analyze --format jsonl -o ../a.db -m $s/methodMapping.txt -e pprof -e prof \
    $s/beat.bin $s/ios-lag.json perf-mmap.txt > ../a.jsonl 2> /dev/null) || echo "analyze a failed"
(cd "$t/sp" && tracetool analyze --format jsonl -o ../b.db -m ../mapB.txt -e pprof -e prof \
    $s/beat.bin samples.jsonl > ../b.jsonl 2> /dev/null) || echo "analyze b failed"
python3 - "$t/a.jsonl" "$t/b.jsonl" <<'PY'
import collections, json, sys
OWNERS = ("slice", "thread", "issue", "call_node", "ui_frame", "scene_frame_stats")
NEED = {"method_mapping": ("sha256", "retrace_sha256"), "method": ("mapping_id", "method_id"),
        "module": ("build_id", "name"), "symbolized_pc": ("module_id", "rel_pc"),
        "symbol": ("symbol_set_id", "inline_depth"), "args": ("arg_set_id", "key")}
OLD = {"method": ("mapping_id", "method_id"), "symbolized_pc": ("module_id", "rel_pc"),
       "symbol": ("symbol_set_id", "inline_depth"), "args": ("arg_set_id", "key")}
content = collections.defaultdict(dict)   # table -> key -> row content (ids left out)
old = collections.defaultdict(dict)
clash = collections.Counter()
oldclash = collections.Counter()
missing = collections.Counter()
nrows = collections.Counter()
ids = ("id", "mapping_id", "module_id", "symbol_set_id", "arg_set_id", "table")
for path in sys.argv[1:]:
    rows = collections.defaultdict(list)
    for line in open(path):
        o = json.loads(line)
        rows[o["table"]].append(o)
    imp = {r["id"]: r["import_key"] for r in rows["trace"]}
    mm = {r["id"]: (r["sha256"], r["retrace_sha256"]) for r in rows["method_mapping"]}
    mod = {r["id"]: (r["build_id"], r["name"]) for r in rows["module"]}
    pc = {r["symbol_set_id"]: mod[r["module_id"]] + (r["rel_pc"],) for r in rows["symbolized_pc"]}
    owner = {}
    for t in OWNERS:
        for r in rows[t]:
            if r.get("arg_set_id") is not None:
                trace = r.get("trace_id")
                owner[r["arg_set_id"]] = (t, imp.get(trace), r.get("id", r.get("utid")))
    key = {"method_mapping": lambda r: mm[r["id"]], "module": lambda r: mod[r["id"]],
           "method": lambda r: mm[r["mapping_id"]] + (r["method_id"],),
           "symbolized_pc": lambda r: mod[r["module_id"]] + (r["rel_pc"],),
           "symbol": lambda r: pc[r["symbol_set_id"]] + (r["inline_depth"],),
           "args": lambda r: owner[r["arg_set_id"]] + (r["key"],)}
    for t, cols in NEED.items():
        for r in rows[t]:
            nrows[t] += 1
            missing[t] += any(c not in r for c in cols)
            c = tuple(v for k, v in sorted(r.items()) if k not in ids)
            k = key[t](r)
            clash[t] += content[t].setdefault(k, c) != c
            if t in OLD:
                k = tuple(r[x] for x in OLD[t])
                oldclash[t] += old[t].setdefault(k, c) != c
for t in NEED:
    print("%-15s %4d rows, key columns missing in %d, rows whose key names other content: %d"
          " (by ids alone: %s)" % (t, nrows[t], missing[t], clash[t],
                                   oldclash[t] if t in OLD else "-"))
PY
