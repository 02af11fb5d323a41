#!/usr/bin/env python3
"""Compiler-independent checks of `tracetool symbolicate` on the fixtures of
mkfixtures.sh, for the golden CLI tests: source lines are reported by their "@marker"
names, build ids and addresses by placeholders, so the expected output does not depend on
the compiler version. Where addr2line / llvm-symbolizer are installed the results are also
compared with them (and the comparison is skipped silently otherwise).
Usage: facts.py FIXDIR CASE [ARGS]"""
import json, os, re, shutil, subprocess, sys

SRC = os.path.dirname(os.path.abspath(__file__))
FIX = sys.argv[1]
CASE = sys.argv[2]
ARGS = sys.argv[3:]


def markers():
    m = {}
    for name in ("inline.c", "tmpl.cc", "lib.c", "b.c"):
        with open(os.path.join(SRC, name)) as f:
            for i, line in enumerate(f, 1):
                for mk in re.findall(r"@(\w+)", line):
                    if mk != "name":
                        m[(name, i)] = "@" + mk
    return m


MK = markers()


def loc(file, line):
    b = os.path.basename(file) if file else "??"
    if not line:
        return b + ":?"
    return b + ":" + MK.get((b, line), "L")


def tt(*args, stdin=None):
    p = subprocess.run(["tracetool", "symbolicate"] + list(args), input=stdin,
                       capture_output=True, text=True)
    return p.stdout, p.stderr, p.returncode


def syms(binary):
    out = subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True,
                         text=True).stdout
    res = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTW":
            res[f[3]] = (int(f[0], 16), int(f[1], 16))
    return res


def scan(binary, func, via=None):
    lo, size = syms(binary)[func]
    addrs = "".join("0x%x\n" % a for a in range(lo, lo + size))
    mod = via if via else ["-e", binary]
    out, err, rc = tt(*mod, "-C", "--format", "jsonl", stdin=addrs)
    if rc:
        sys.stdout.write(norm_text(err))
    return [json.loads(l) for l in out.splitlines()]


def chain_str(o):
    return " <- ".join("%s at %s" % (s["FunctionName"] or "??", loc(s["FileName"], s["Line"]))
                       for s in o["Symbol"])


def case_chain():
    """chain BIN FUNC [--via=ARGS] WANT...: every address of FUNC (from BIN's symbols),
    symbolicated with `-e BIN` or with ARGS instead (e.g. a stripped file and a store)."""
    binary, func = ARGS[0], ARGS[1]
    via = [a[6:] for a in ARGS[2:] if a.startswith("--via=")]
    del ARGS[2:2 + len(via)]
    extra = via[0].replace("FIX/", FIX + "/").split() if via else None
    res = scan(os.path.join(FIX, binary), func, extra)
    outer = {o["Symbol"][-1]["FunctionName"] for o in res}
    seen = sorted({chain_str(o) for o in res if "@" in chain_str(o)})
    print("%s %s: %d addresses, outer functions: %s" % (binary, func, len(res),
                                                      ", ".join(sorted(outer))))
    for want in ARGS[2:]:
        print("  %s: %s" % ("found" if want in seen else "MISSING", want))
        if want not in seen:
            for s in seen:
                print("    have: " + s)


def ref_chains(tool, binary, addrs):
    stdin = "".join("0x%x\n" % a for a in addrs)
    if os.path.basename(tool) == "addr2line":
        out = subprocess.run(["addr2line", "-e", binary, "-a", "-f", "-i", "-C"], input=stdin,
                             capture_output=True, text=True).stdout
        res, cur = {}, None
        lines = out.splitlines()
        i = 0
        while i < len(lines):
            if lines[i].startswith("0x"):
                cur = int(lines[i], 16)
                res[cur] = []
                i += 1
                continue
            f, l = lines[i], lines[i + 1]
            file, _, ln = l.rpartition(":")
            ln = ln.split(" ")[0]
            res[cur].append((f, os.path.basename(file), int(ln) if ln.isdigit() else 0))
            i += 2
        return res
    out = subprocess.run([tool, "--obj=" + binary, "--inlining", "--demangle",
                          "--output-style=JSON"], input=stdin, capture_output=True,
                         text=True).stdout
    res = {}
    for l in out.splitlines():
        o = json.loads(l)
        res[int(o["Address"], 16)] = [(s["FunctionName"], os.path.basename(s["FileName"]),
                                       s["Line"]) for s in o["Symbol"]]
    return res


def case_compare():
    """Every address of every DWARF function of BINARY against a reference tool."""
    binary, tool = os.path.join(FIX, ARGS[0]), ARGS[1]
    exe = shutil.which(tool) or shutil.which(tool + "-14")
    if not exe:
        print("%s vs %s: agree" % (ARGS[0], tool))  # not installed: skipped
        return
    funcs = [f for f in ARGS[2:]]
    addrs = []
    for f in funcs:
        lo, size = syms(binary)[f]
        addrs += range(lo, lo + size)
    stdin = "".join("0x%x\n" % a for a in addrs)
    out, _, _ = tt("-e", binary, "-C", "--format", "jsonl", stdin=stdin)
    ours = {}
    for l in out.splitlines():
        o = json.loads(l)
        ours[int(o["Address"], 16)] = [(s["FunctionName"] or "??",
                                        os.path.basename(s["FileName"]) or "??", s["Line"])
                                       for s in o["Symbol"]]
    ref = ref_chains(exe, binary, addrs)
    def canon(ch):  # clone-name policy (spec R3): compare without clone suffixes
        return [(re.sub(r"(\.(isra|part|constprop|cold)(\.\d+)*)+$", "", f), fi, ln)
                for (f, fi, ln) in ch] if ch else ch
    bad = [a for a in addrs if canon(ours.get(a)) != canon(ref.get(a))]
    if not bad:
        print("%s vs %s: agree" % (ARGS[0], tool))
    for a in bad[:5]:
        print("0x%x: tracetool %s, %s %s" % (a, ours.get(a), tool, ref.get(a)))


def norm_text(s, binary=None):
    bid = None
    if binary:
        out = subprocess.run(["readelf", "-n", binary], capture_output=True, text=True).stdout
        m = re.search(r"Build ID: (\w+)", out)
        bid = m.group(1) if m else None
    if bid:
        s = s.replace(bid, "BUILDID")
    s = re.sub(r"\b(inline\.c|lib\.c|tmpl\.cc):(\d+)",
               lambda m: m.group(1) + ":" + MK.get((m.group(1), int(m.group(2))), "L"), s)
    s = re.sub(r"\b0x[0-9a-f]+\b", "0xADDR", s)
    s = re.sub(r"\b[0-9a-f]{12}\b", "ADDR", s)
    s = re.sub(r"\bpc [0-9a-f]{8,16}\b", "pc ADDR", s)
    s = re.sub(r'"Line":(\d+)', '"Line":N', s)
    s = re.sub(r'"(Column|StartLine|Discriminator)":\d+', r'"\1":N', s)
    return s.replace(FIX + "/", "")


def helper_addr(binary, func, marker):
    """An address of func whose innermost line is marker, found with tracetool itself."""
    for o in scan(binary, func):
        s = o["Symbol"][0]
        if loc(s["FileName"], s["Line"]).endswith(marker):
            return int(o["Address"], 16)
    sys.exit("facts: no address of %s at %s" % (func, marker))


def case_backtrace():
    """A tombstone / modoff / perf text built from libfx.so, run through --symbols."""
    kind = ARGS[0]
    lib = os.path.join(FIX, "libfx.so")
    a = helper_addr(lib, "lib_entry", "@libhelper")
    bid = re.search(r"Build ID: (\w+)", subprocess.run(["readelf", "-n", lib],
                    capture_output=True, text=True).stdout).group(1)
    with open(os.path.join(SRC, "backtrace.txt")) as f:
        text = f.read()
    text = text.replace("PC", "%016x" % a).replace("BID", bid).replace("OFF", "0x%x" % a)
    fmt = ARGS[1] if len(ARGS) > 1 else "text"
    out, err, rc = tt("--symbols", os.path.join(FIX, "store"), "--kind", kind, "-s", "--format",
                      fmt, stdin=text)
    sys.stdout.write(norm_text(out, lib))
    sys.stdout.write(norm_text(err, lib))
    print("exit", rc)


def case_layout():
    """layout BIN FUNC FLAG...: text output byte-identical to GNU addr2line's."""
    binary, func, flags = os.path.join(FIX, ARGS[0]), ARGS[1], ARGS[2:]
    lo, size = syms(binary)[func]
    addrs = ["0x%x" % a for a in range(lo, lo + size)]
    ours, _, _ = tt("-e", binary, *flags, *addrs)
    name = "%s %s %s" % (ARGS[0], func, " ".join(flags))
    if shutil.which("addr2line"):
        ref = subprocess.run(["addr2line", "-e", binary] + flags + addrs, capture_output=True,
                             text=True).stdout
        if ref != ours:
            for a, b in zip(ref.splitlines(), ours.splitlines()):
                if a != b:
                    print("%s: addr2line %r, tracetool %r" % (name, a, b))
                    return
            print("%s: different lengths" % name)
            return
    print("%s: same as addr2line, %d lines" % (name, len(ours.splitlines())))


def case_json():
    """json BIN FUNC FORMAT: the first address of FUNC, normalised."""
    binary = os.path.join(FIX, ARGS[0])
    lo, _ = syms(binary)[ARGS[1]]
    out, err, rc = tt("-e", binary, "-C", "-s", "--format", ARGS[2], "0x%x" % lo, "0x%x" % lo)
    sys.stdout.write(norm_text(out, binary))
    sys.stdout.write(norm_text(err, binary))


def case_spec81():
    """spec 8.1 and 8.2 worked examples on libb.so (b.c compiled as /src/b.c): the output for
    the address whose chain is leaf <- mid <- top, the address itself replaced."""
    lib = os.path.join(FIX, "libb.so")
    addr = None
    for o in scan(lib, "top"):
        if [s["FunctionName"] for s in o["Symbol"]] == ["leaf", "mid", "top"]:
            addr = o["Address"]
            break
    if not addr:
        sys.exit("facts: no leaf <- mid <- top address in libb.so")
    for args in (["-a", "-f", "-i"], ["-a", "-f", "-i", "-p"], ["--format", "jsonl"]):
        out, err, rc = tt("-e", lib, *args, addr)
        out = re.sub(r'"StartAddress":"0x[0-9a-f]+"', '"StartAddress":"0xSTART"', out)
        out = re.sub(r'"Column":\d+', '"Column":N', out)
        out = re.sub(r"0x0*" + addr[2:] + r"\b", "0xADDR", out)
        out = out.replace('"%s"' % addr, '"0xADDR"')
        out = re.sub(r'"BuildId":"[0-9a-f]+"', '"BuildId":"BUILDID"', out)
        sys.stdout.write(out.replace(lib, "libfoo.so"))


def case_padding():
    """padding BIN: an address between two functions, default policy and nearest symbol."""
    binary = os.path.join(FIX, ARGS[0])
    out = subprocess.run(["nm", "-S", "--defined-only", "-n", binary], capture_output=True,
                         text=True).stdout
    rows = [l.split() for l in out.splitlines()]
    rows = [(int(r[0], 16), int(r[1], 16), r[3]) for r in rows if len(r) == 4 and r[2] in "tT"]
    for (a, n, name), (b, _, _) in zip(rows, rows[1:]):
        if n and a + n < b:
            pad = "0x%x" % (a + n)
            d, _, _ = tt("-e", binary, "-f", pad)
            e, _, _ = tt("-e", binary, "-f", "--nearest-symbol", pad)
            print("padding after a function: default %r, --nearest-symbol names it: %s" %
                  (d.splitlines()[0], e.splitlines()[0] == name))
            return
    print("no padding found")


def case_perf():
    """A perf script text with MMAP2 events for libfx.so (runtime addresses, spec 7.4)."""
    lib = os.path.join(FIX, "libfx.so")
    a = helper_addr(lib, "lib_entry", "@libhelper")
    ph = subprocess.run(["readelf", "-lW", lib], capture_output=True, text=True).stdout
    seg = [l.split() for l in ph.splitlines() if l.strip().startswith("LOAD") and "E" in l.split()[-2]][0]
    off, vaddr = int(seg[1], 16), int(seg[2], 16)
    start = 0x7f0000000000 + off
    rt = start + (a - vaddr)
    with open(os.path.join(SRC, "perf.txt")) as f:
        text = f.read()
    # the path goes in last: a temporary directory name may contain "RT" or "START"
    text = (text.replace("START", "%x" % start)
            .replace("PGOFF", "%x" % off).replace("RT1", "%x" % (rt + 1)).replace("RT", "%x" % rt)
            .replace("LIB", lib))
    out, err, rc = tt("-s", *ARGS, stdin=text)
    sys.stdout.write(norm_text(out, lib).replace(lib, "libfx.so"))
    sys.stdout.write(norm_text(err, lib).replace(lib, "libfx.so"))
    print("exit", rc)


{"chain": case_chain, "padding": case_padding, "spec81": case_spec81, "layout": case_layout, "json": case_json, "perf": case_perf, "compare": case_compare, "backtrace": case_backtrace}[CASE]()
