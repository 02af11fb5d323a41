#!/usr/bin/env python3
"""Compares tracetool databases table by table and view by view, modulo row ids.

usage: dbcanon.py A.db B.db [C.db ...]

Every row is reduced to its columns without its own id, each reference replaced by the
canonical key of the row it points to (recursively: a slice's parent, a callsite's frame, a
frame's module and symbol set, ...), so two databases holding the same data with other ids
compare equal. Shared rows (method mappings, methods, modules, symbol sets) are compared the
same way. trace.imported_unix_ms (the time of the import) is ignored. Each database after the
first is compared with the first; the exit status is 1 on any difference.
"""
import collections
import hashlib
import sqlite3
import sys

PK = {"process": "upid", "thread": "utid"}
NO_PK = {"trace_input", "metadata", "args", "symbolized_pc", "binary_image"}
IGNORE = {("trace", "imported_unix_ms")}
T = "trace"
REFS = {
    "trace": {"mapping_id": "method_mapping"},
    "method": {"mapping_id": "method_mapping"},
    "ignored_method": {"mapping_id": "method_mapping"},
    "thread": {"trace_id": T, "upid": "process", "arg_set_id": "@args"},
    "call_tree": {"trace_id": T, "issue_id": "issue", "utid": "thread"},
    "call_node": {"tree_id": "call_tree", "parent_id": "call_node", "method_id": "method",
                  "callsite_id": "callsite", "arg_set_id": "@args"},
    "issue": {"trace_id": T, "stack_key_method_id": "method", "utid": "thread",
              "arg_set_id": "@args"},
    "ui_frame": {"trace_id": T, "utid": "thread", "arg_set_id": "@args"},
    "scene_frame_stats": {"trace_id": T, "issue_id": "issue", "arg_set_id": "@args"},
    "startup": {"trace_id": T, "issue_id": "issue"},
    "startup_segment": {"startup_id": "startup"},
    "stack_frame": {"trace_id": T, "module_id": "module", "symbol_set_id": "@symbol",
                    "method_id": "method"},
    "callsite": {"trace_id": T, "parent_id": "callsite", "frame_id": "stack_frame"},
    "sample": {"trace_id": T, "utid": "thread", "callsite_id": "callsite"},
    "slice": {"trace_id": T, "utid": "thread", "parent_id": "slice", "frame_id": "stack_frame",
              "callsite_id": "callsite", "method_id": "method", "wakeup_utid": "thread",
              "arg_set_id": "@args"},
    "wakeup": {"trace_id": T, "wakee_slice_id": "slice", "waker_utid": "thread"},
    "symbolized_pc": {"module_id": "module", "symbol_set_id": "@symbol"},
    "binary_image": {"trace_id": T, "module_id": "module"},
    # a set's number is an id too: its rows are compared by the key of their whole set
    "symbol": {"symbol_set_id": "@symbol"},
    "args": {"arg_set_id": "@args"},
}
for t in ("trace_input", "metadata", "stats", "process", "launch"):
    REFS[t] = {"trace_id": T}
# issue.call_tree_id and call_tree.issue_id point at each other: the key leaves its
# tree out (the tree's key holds the issue); the tree is compared as part of the issue row.
EXTRA = {"issue": {"call_tree_id": "call_tree"}}
# sets of rows sharing a set id: the key of a set is the sorted keys of its rows
SETS = {"@symbol": ("symbol", "symbol_set_id"), "@args": ("args", "arg_set_id")}
VIEW_REFS = {"trace_id": T, "utid": "thread", "issue_id": "issue", "startup_id": "startup"}


def h(v):
    return hashlib.sha1(repr(v).encode()).hexdigest()[:20]


def norm(v):
    if isinstance(v, float):
        return float("%.9g" % v)
    return v


class Db:
    def __init__(self, path):
        self.c = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        self.tables = [r[0] for r in self.c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' "
            "ORDER BY name")]
        self.views = [r[0] for r in self.c.execute(
            "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")]
        self.keys = {}   # table -> {id: key}
        self.pending = {}  # table -> [(key, row)]

    def cols(self, t):
        return [r[1] for r in self.c.execute("PRAGMA table_info(%s)" % t)]

    def key(self, target, v):
        if v is None:
            return None
        if target in SETS:
            return self.setkey(target, v)
        self.canon(target)
        return self.keys[target].get(v, ("dangling", target, v))

    def setkey(self, name, v):
        if name not in self.keys:
            t, col = SETS[name]
            cs = self.cols(t)
            groups = collections.defaultdict(list)
            for r in self.c.execute("SELECT * FROM %s" % t):
                d = dict(zip(cs, r))
                sid = d.pop(col)
                d.pop("id", None)
                groups[sid].append(h(sorted(d.items())))
            self.keys[name] = {s: h(sorted(g)) for s, g in groups.items()}
        return self.keys[name].get(v, ("dangling", name, v))

    def canon(self, t):
        if t in self.keys:
            return
        self.keys[t] = {}
        cs = self.cols(t)
        pk = None if t in NO_PK else PK.get(t, "id")
        refs = REFS.get(t, {})
        extra = EXTRA.get(t, {})
        selfref = [c for c, tt in refs.items() if tt == t]
        order = " ORDER BY depth" if selfref and "depth" in cs else ""
        done = []
        for r in self.c.execute("SELECT * FROM %s%s" % (t, order)).fetchall():
            d = dict(zip(cs, r))
            vals = []
            for c in cs:
                if c == pk or (t, c) in IGNORE or c in extra:
                    continue
                v = d[c]
                vals.append((c, self.key(refs[c], v) if c in refs else norm(v)))
            k = h(vals)
            if pk:
                self.keys[t][d[pk]] = k
            done.append((k, d))
        self.pending[t] = done

    def table_rows(self, t):
        """The rows of t as keys, with the references left out of the keys (EXTRA) added, once
        every table has its keys."""
        self.canon(t)
        counter = collections.Counter()
        for k, d in self.pending[t]:
            counter[(k,) + tuple((c, self.key(tt, d[c]))
                                 for c, tt in EXTRA.get(t, {}).items())] += 1
        return counter

    def view(self, v):
        cur = self.c.execute("SELECT * FROM %s" % v)
        cs = [x[0] for x in cur.description]
        counter = collections.Counter()
        for r in cur.fetchall():
            vals = []
            for c, x in zip(cs, r):
                if c in VIEW_REFS:
                    x = self.key(VIEW_REFS[c], x)
                elif v == "slice_ms" and c == "id":
                    x = self.key("slice", x)
                vals.append((c, norm(x)))
            counter[tuple(vals)] += 1
        return counter


def compare(a, b, pa, pb):
    bad = 0
    if a.tables != b.tables or a.views != b.views:
        print("%s and %s: different tables or views" % (pa, pb))
        return 1
    nrows = 0
    for t in a.tables:
        a.canon(t)
        b.canon(t)
    for t in a.tables:
        ra, rb = a.table_rows(t), b.table_rows(t)
        if ra != rb:
            bad += 1
            only_a = ra - rb
            only_b = rb - ra
            print("table %s differs: %d rows only in %s, %d only in %s" % (
                t, sum(only_a.values()), pa, sum(only_b.values()), pb))
        nrows += sum(ra.values())
    for v in a.views:
        va, vb = a.view(v), b.view(v)
        if va != vb:
            bad += 1
            print("view %s differs:" % v)
            for r in list((va - vb).elements())[:3]:
                print("  only in %s: %s" % (pa, r))
            for r in list((vb - va).elements())[:3]:
                print("  only in %s: %s" % (pb, r))
    if not bad:
        print("identical modulo ids: %d tables (%d rows), %d views" % (
            len(a.tables), nrows, len(a.views)))
    return 1 if bad else 0


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    first = Db(sys.argv[1])
    rc = 0
    for p in sys.argv[2:]:
        rc |= compare(first, Db(p), sys.argv[1], p)
    return rc


if __name__ == "__main__":
    sys.exit(main())
