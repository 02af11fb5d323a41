#!/usr/bin/env python3
"""Compares `tracetool symbolicate` with llvm-symbolizer-14 on one build variant made by
tests/sym/variants.sh: every function start and two mid-function addresses of every sized
function symbol of prog, libvar.so and progxx. The reference runs on the unstripped,
uncompressed build (NAME.ref when the variant rewrote the file). Compared per address:
the inline chain of (function, file basename, line); clone suffixes are canonicalised
(spec R3). Usage: variants.py DIR [--table]"""
import collections, json, os, re, subprocess, sys

D = sys.argv[1].rstrip("/")
NAME = os.path.basename(D)
TABLE = "--table" in sys.argv[2:]
DETAIL = "--detail" in sys.argv[2:]
CLONE = re.compile(r"( \[clone [^]]*\]| \(\.[a-z_]+\.\d+\))+$|(\.(isra|part|constprop|cold|lto_priv)(\.\d+)*)+$")


def run(cmd, stdin):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    return p.stdout, p.stderr, p.returncode


def addresses(binary):
    out, _, _ = run(["nm", "-S", "--defined-only", binary], "")
    addrs = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTW" and int(f[1], 16) > 0:
            lo, size = int(f[0], 16), int(f[1], 16)
            addrs.update((lo, lo + size // 2, lo + size * 3 // 4))
    return sorted(addrs)


def lam(m):
    n = int(m.group(2))
    return "'lambda%s'(%s)" % ("" if n == 1 else n - 2, m.group(1))


def canon(f):
    """clone suffixes dropped (spec R3); libiberty's lambda names in LLVM's spelling; names
    LLVM 14's demangler leaves mangled go through c++filt"""
    if f and f.startswith("_Z"):
        f = run(["c++filt"], f + "\n")[0].strip()
    f = (f or "").replace("operator< <", "operator<<")
    return re.sub(r"\{lambda\(([^()]*)\)#(\d+)\}", lam, CLONE.sub("", f or ""))


def chains(out):
    res = {}
    for line in out.splitlines():
        o = json.loads(line)
        res[int(o["Address"], 16)] = tuple(
            (canon(s["FunctionName"]), os.path.basename(s["FileName"] or ""),
             s["Line"]) for s in o.get("Symbol", []))
    return res


def kind(ours, ref):
    if not ours or not ours[-1][0]:
        return "no function"
    if ours[-1][0] != ref[-1][0]:
        return "function"
    if len(ours) < len(ref):
        return "missing inline frames"
    if len(ours) > len(ref):
        return "extra inline frames"
    if [f for f, _, _ in ours] != [f for f, _, _ in ref]:
        return "inline function"
    if ours[0][1:] != ref[0][1:]:
        return "file:line" if ours[0][2] else "no line"
    return "call site file:line"


def module(m):
    path = os.path.join(D, m)
    ref = path + ".ref" if os.path.exists(path + ".ref") else path
    addrs = addresses(ref)
    stdin = "".join("0x%x\n" % a for a in addrs)
    cmd = ["tracetool", "symbolicate", "-e", path, "-C", "--format", "jsonl"]
    if os.path.isdir(os.path.join(D, "store")):
        cmd[2:2] = ["--symbols", os.path.join(D, "store")]
    o, err, rc = run(cmd, stdin)
    ours = chains(o)
    r, _, _ = run(["llvm-symbolizer-14", "--obj=" + ref, "--inlining", "--demangle",
                   "--output-style=JSON"], stdin)
    theirs = chains(r)
    kinds = collections.Counter()
    for a in addrs:
        if ours.get(a) != theirs.get(a):
            kinds[kind(ours.get(a), theirs.get(a) or (("", "", 0),))] += 1
            if DETAIL:
                print("%s 0x%x\n  ours %s\n  ref  %s" % (m, a, ours.get(a), theirs.get(a)))
    warn = [l.replace(D + "/", "") for l in err.splitlines()]
    if rc:
        warn.append("exit %d" % rc)
    return len(addrs), kinds, warn


tot, kinds, warns = 0, collections.Counter(), []
for m in ("prog", "libvar.so", "progxx"):
    n, k, w = module(m)
    tot += n
    kinds.update(k)
    warns += [x for x in w if x not in warns]
bad = sum(kinds.values())
desc = ", ".join("%s %d" % (k, c) for k, c in sorted(kinds.items())) or "-"
if TABLE:
    print("| %s | %d | %d | %d | %s | %s |" % (NAME, tot, tot - bad, bad, desc,
                                               "; ".join(warns) or "-"))
else:
    print("%s: %s" % (NAME, "agree" if not bad else "disagree (" + ", ".join(sorted(kinds)) + ")"))
    for w in warns:
        print("  " + w)
