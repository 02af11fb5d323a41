#!/usr/bin/env python3
# Cross-export invariant (issue 11 item 7): per function, self and total weights agree
# between `samples --format json`, `export --format folded`, speedscope (sampled profiles
# and, for time weights, the evented slices) and Chrome JSON slices, and the `beat` tree for
# method-beat buffers, for every input kind. Time weights are compared with the slices of
# the mid policy, which splits time between samples as the wall/cpu weights do (spec
# samples.md 7.2). Usage: tests/check-weights.py [BUILD] from the repository root; prints
# "weights: N passed, N failed" (one check per input, weight unit and pair of outputs).
import json
import os
import subprocess
import sys
from collections import defaultdict

build = sys.argv[1] if len(sys.argv) > 1 else "build"
tt = os.path.join(os.getcwd(), build, "tracetool")
passed = failed = 0

SAMPLED = [  # (input args, has times)
    (["samples/sampling.bin"], True),
    (["samples/perf-fib.txt.gz"], True),
    (["tests/data/perf-variants.txt"], True),
    (["samples/stacks.folded"], False),
    (["tests/data/deep.folded"], False),
    (["samples/samples.jsonl"], True),
    (["tests/data/slices-example.jsonl"], True),
    (["tests/data/msg-split.jsonl"], True),
]
BEAT = [
    ["-m", "samples/methodMapping.txt", "samples/beat.bin"],
    ["-m", "tests/data/beat-small-mapping.txt", "tests/data/beat-small.txt"],
    ["-m", "tests/data/deep-beat-mapping.txt", "tests/data/deep-beat.txt"],
]


def run(argv):
    r = subprocess.run([tt] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("exit %d: tracetool %s\n%s" % (r.returncode, " ".join(argv),
                                                          r.stderr.decode()[:400]))
    return r.stdout.decode()


class Agg:
    """Per function name: self weight, and total weight counting each stack once per
    function (recursion is not counted twice)."""

    def __init__(self):
        self.self_w = defaultdict(int)
        self.total = defaultdict(int)

    def stack(self, names, w):
        if not w:
            return
        self.self_w[names[-1]] += w
        for n in set(names):
            self.total[n] += w

    def table(self):
        keys = set(k for k, v in self.self_w.items() if v) | \
            set(k for k, v in self.total.items() if v)
        return {k: (self.self_w.get(k, 0), self.total.get(k, 0)) for k in keys}


def ns(text):
    """Exact ns from a decimal of us ("12.345") or the integer ns it already is."""
    s = str(text)
    neg = s.startswith("-")
    s = s.lstrip("-")
    whole, _, frac = s.partition(".")
    v = int(whole or 0) * 1000 + int((frac + "000")[:3])
    return -v if neg else v


def from_samples_json(args, weight):
    d = json.loads(run(["samples", "--format", "json", "--weight", weight, "--top", "1"] + args))
    out = {}
    for f in d["functions"]:
        s, t = out.get(f["name"], (0, 0))
        out[f["name"]] = (s + f["self_weight"], t + f["total_weight"])
    return {k: v for k, v in out.items() if v != (0, 0)}


def from_folded(args, weight):
    a = Agg()
    for line in run(["export", "--format", "folded", "--folded-root", "none"] +
                    (["--weight", weight] if weight else []) + args).splitlines():
        path, _, w = line.rpartition(" ")
        a.stack(path.split(";"), int(w))
    return a.table()


def from_speedscope_sampled(args, weight):
    d = json.loads(run(["export", "--format", "speedscope", "--weight", weight] + args))
    names = [f["name"] for f in d["shared"]["frames"]]
    a = Agg()
    for p in d["profiles"]:
        if p["type"] == "sampled":
            for st, w in zip(p["samples"], p["weights"]):
                a.stack([names[i] for i in st], w)
    return a.table()


class Slices:
    """Self and outermost-total durations from nested intervals given in pre-order."""

    def __init__(self):
        self.self_w = defaultdict(int)
        self.total = defaultdict(int)

    def thread(self, events):  # (name, begin, end) in pre-order
        stack = []  # [name, begin, end, children_dur]
        for name, b, e in events + [(None, None, None)]:
            while stack and (name is None or not (stack[-1][1] <= b and e <= stack[-1][2])):
                self.close(stack)
            if name is not None:
                stack.append([name, b, e, 0])

    def close(self, stack):
        n, b, e, ch = stack.pop()
        self.self_w[n] += (e - b) - ch
        if stack:
            stack[-1][3] += e - b
        if all(s[0] != n for s in stack):
            self.total[n] += e - b

    def table(self):
        keys = set(k for k, v in self.self_w.items() if v) | \
            set(k for k, v in self.total.items() if v)
        return {k: (self.self_w.get(k, 0), self.total.get(k, 0)) for k in keys}


def from_chrome(args, cpu=False):
    d = json.loads(run(["export", "--format", "chrome", "--slice-end", "mid"] + args))
    per = defaultdict(list)
    for e in d["traceEvents"]:
        if e.get("ph") != "X" or e.get("name") == "[no samples]":
            continue
        if cpu:
            if "tts" not in e:
                continue
            b, dur = ns(e["tts"]), ns(e["tdur"])
        else:
            b, dur = ns(e["ts"]), ns(e["dur"])
        per[(e["pid"], e["tid"])].append((e["name"], b, b + dur))
    s = Slices()
    for k in sorted(per):
        s.thread(per[k])
    return s.table()


def from_speedscope_evented(args):
    d = json.loads(run(["export", "--format", "speedscope", "--slice-end", "mid"] + args))
    names = [f["name"] for f in d["shared"]["frames"]]
    s = Slices()
    for p in d["profiles"]:
        if p["type"] != "evented":
            continue
        open_, events = [], []
        for ev in p["events"]:  # O/C balanced; rebuild (name, begin, end) in pre-order
            if ev["type"] == "O":
                open_.append(len(events))
                events.append([names[ev["frame"]], ev["at"], None])
            else:
                events[open_.pop()][2] = ev["at"]
        s.thread([tuple(x) for x in events])
    return s.table()


def from_beat_tree(args):
    d = json.loads(run(["beat", "--format", "json", "--trim", "0"] + args))
    s = defaultdict(int)
    t = defaultdict(int)

    # flat pre-order nodes: a node's ancestors are its parent's plus the parent
    within = []  # per node: the names on the path from the root to it, itself included
    for n in d["nodes"]:
        name = n["name"] if n["name"] is not None else "id %d" % n["id"]
        anc = within[n["parent"]] if n["parent"] is not None else frozenset()
        s[name] += n["self_ms"] * 1000000
        if name not in anc:
            t[name] += n["total_ms"] * 1000000
        within.append(anc | {name})
    keys = set(k for k, v in s.items() if v) | set(k for k, v in t.items() if v)
    return {k: (s.get(k, 0), t.get(k, 0)) for k in keys}


def compare(label, ref_name, ref, name, other):
    global passed, failed
    bad = []
    for k in sorted(set(ref) | set(other)):
        a, b = ref.get(k, (0, 0)), other.get(k, (0, 0))
        if a != b:
            bad.append("  %s: %s self %d total %d, %s self %d total %d" %
                       (k[:90], ref_name, a[0], a[1], name, b[0], b[1]))
    if bad:
        print("FAIL %s: %s vs %s: %d functions differ" % (label, ref_name, name, len(bad)))
        print("\n".join(bad[:8]))
        failed += 1
    else:
        print("ok %s: %s = %s (%d functions)" % (label, ref_name, name, len(ref)))
        passed += 1


def guarded(label, fn):
    global failed
    try:
        fn()
    except (RuntimeError, ValueError, KeyError) as e:
        print("FAIL %s: %s" % (label, e))
        failed += 1


def sampled(args, timed):
    for weight in ["samples", "period"] + (["wall", "cpu"] if timed else []):
        label = "%s --weight %s" % (" ".join(args), weight)

        def one():
            ref = None
            if weight == "cpu":  # without CPU times samples refuses cpu as export does
                r = subprocess.run([tt, "samples", "--format", "json", "--weight", "cpu",
                                    "--top", "1"] + args,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if r.returncode == 2 and not r.stdout and b"no thread CPU clock" in r.stderr:
                    ref = {}
            if ref is None:
                ref = from_samples_json(args, weight)
            if not ref and weight != "cpu":
                raise ValueError("no weights at all")
            if not ref:  # inputs without CPU times have no cpu weight: export refuses it
                for fmt in ["folded", "speedscope"]:
                    r = subprocess.run([tt, "export", "--format", fmt, "--weight", weight] + args,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    if r.returncode != 2 or r.stdout:
                        raise RuntimeError("%s: exit %d, %d bytes out; expected exit 2, no output"
                                           % (fmt, r.returncode, len(r.stdout)))
                return
            compare(label, "samples-json", ref, "folded", from_folded(args, weight))
            compare(label, "samples-json", ref, "speedscope", from_speedscope_sampled(args, weight))
            if weight == "wall":
                compare(label, "samples-json", ref, "chrome(mid)", from_chrome(args))
                compare(label, "samples-json", ref, "speedscope-evented(mid)",
                        from_speedscope_evented(args))
            if weight == "cpu" and ref:
                compare(label, "samples-json", ref, "chrome(mid) thread time",
                        from_chrome(args, cpu=True))
        guarded(label, one)


def beat(args):
    label = " ".join(args)

    def one():
        ref = from_beat_tree(args)
        compare(label, "beat-tree", ref, "folded", from_folded(args, None))
        compare(label, "beat-tree", ref, "folded --weight wall", from_folded(args, "wall"))
        compare(label, "beat-tree", ref, "chrome", from_chrome(args))
        compare(label, "beat-tree", ref, "speedscope-evented", from_speedscope_evented(args))
    guarded(label, one)


for a, timed in SAMPLED:
    sampled(a, timed)
for a in BEAT:
    beat(a)
print("weights: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
