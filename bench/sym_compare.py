#!/usr/bin/env python3
"""Compares `tracetool symbolicate` with llvm-symbolizer and GNU addr2line on random .text
addresses of one binary (spec/symbolication.md 9.5): full inline chains after
normalisation (clone suffixes stripped, directories dropped, unknown line -> 0, column and
discriminator ignored). Reference tools that are not installed are skipped.
With --mangled every tool prints linkage names undemangled (tracetool and addr2line without
-C, llvm-symbolizer --no-demangle): C++ chains then compare the functions themselves, not
the two demanglers' styles (libiberty writes `operator< <char>` and `{lambda()#1}` where
LLVM's writes `operator<<char>` and `'lambda'()`).
With --ref REF the reference tools read REF instead of BINARY: the same code built another
way (llvm-symbolizer 14 drops inline frames of clang's split DWARF units that it reports for
the same code built without -gsplit-dwarf).
Usage: sym_compare.py [-n N] [--seed S] [--time] [--show K] [--mangled] [--ref REF] TRACETOOL
       BINARY
Prints one line per tool: agreement with tracetool, and with --time wall and CPU time (medians
of --runs runs), peak RSS, each reference's ratio and tracetool's CPU against the fastest."""
import argparse, json, os, random, re, resource, shutil, subprocess, sys, time

CLONE = re.compile(r"(\.(isra|part|constprop|cold|lto_priv|localalias)(\.\d+)*)+$")
CLONE_DM = re.compile(r" \[clone [^\]]*\]")
# llvm-symbolizer demangles a clone symbol as "f(int) (.isra.0.cold)"
CLONE_LLVM = re.compile(r" \((\.(isra|part|constprop|cold|lto_priv|localalias)(\.\d+)*)+\)$")


def norm_func(f):
    if f in ("", "??"):
        return "??"
    f = CLONE_DM.sub("", f)
    f = CLONE_LLVM.sub("", f)
    return CLONE.sub("", f)


def norm_file(f):
    return "??" if f in ("", "??") else os.path.basename(f)


def text_range(binary):
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if " .text " in line:
            f = line.split("]", 1)[1].split()
            return int(f[2], 16), int(f[4], 16)
    sys.exit("sym_compare: no .text section in " + binary)


def run(cmd, stdin_text, timing):
    """Runs cmd with stdin_text; returns (stdout, wall seconds, peak RSS MiB) of that process."""
    import tempfile
    with tempfile.TemporaryFile("w+") as fin, tempfile.TemporaryFile("w+") as fout:
        fin.write(stdin_text)
        fin.seek(0)
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL)
        _, _, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        fout.seek(0)
        return fout.read(), (wall, ru.ru_utime + ru.ru_stime), ru.ru_maxrss / 1024


_dm_cache = {}


def demangle_leftovers(res):
    """llvm-symbolizer 14 leaves some names its demangler rejects mangled; c++filt them."""
    names = {f for ch in res.values() for (f, _, _) in ch if f.startswith("_Z")}
    names -= set(_dm_cache)
    if names and shutil.which("c++filt"):
        names = sorted(names)
        out = subprocess.run(["c++filt"], input="\n".join(names) + "\n", capture_output=True,
                             text=True).stdout.splitlines()
        _dm_cache.update(zip(names, out))
    return {a: tuple((norm_func(_dm_cache.get(f, f)), fi, ln) for (f, fi, ln) in ch)
            for a, ch in res.items()}


def parse_jsonl(out):
    res = {}
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        o = json.loads(line)
        a = int(o["Address"], 16)
        res[a] = tuple((norm_func(s.get("FunctionName", "")), norm_file(s.get("FileName", "")),
                        int(s.get("Line", 0))) for s in o.get("Symbol", []))
    return res


def parse_addr2line(out):
    res, cur, lines = {}, None, []
    def flush():
        if cur is not None:
            fr = []
            for i in range(0, len(lines) - 1, 2):
                fn, loc = lines[i], lines[i + 1]
                file, _, ln = loc.rpartition(":")
                ln = ln.split(" ")[0]
                fr.append((norm_func(fn), norm_file(file), int(ln) if ln.isdigit() else 0))
            res[cur] = tuple(fr)
    for line in out.splitlines():
        if line.startswith("0x") and ":" not in line:
            flush()
            cur, lines = int(line, 16), []
        else:
            lines.append(line)
    flush()
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--runs", type=int, default=1, help="timed runs per tool (medians)")
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--mangled", action="store_true")
    ap.add_argument("--ref", help="binary the reference tools read (default BINARY)")
    ap.add_argument("tracetool")
    ap.add_argument("binary")
    a = ap.parse_args()
    ref_bin = a.ref or a.binary
    lo, size = text_range(a.binary)
    rnd = random.Random(a.seed)
    addrs = [lo + rnd.randrange(size) for _ in range(a.n)]
    stdin = "".join("0x%x\n" % x for x in addrs)
    dm = [] if a.mangled else ["-C"]
    tools = [("tracetool", [a.tracetool, "symbolicate", "-e", a.binary] + dm + ["--format",
                            "jsonl"], parse_jsonl)]
    llvm = shutil.which("llvm-symbolizer") or shutil.which("llvm-symbolizer-14")
    if llvm:
        tools.append(("llvm-symbolizer", [llvm, "--obj=" + ref_bin, "--inlining",
                                          "--no-demangle" if a.mangled else "--demangle",
                                          "--output-style=JSON"], parse_jsonl))
    if shutil.which("addr2line"):
        tools.append(("addr2line", ["addr2line", "-e", ref_bin, "-a", "-f", "-i"] + dm,
                      parse_addr2line))
    if shutil.which("eu-addr2line"):
        tools.append(("eu-addr2line", ["eu-addr2line", "-e", ref_bin, "-a", "-f", "-i"] + dm,
                      parse_addr2line))
    results, walls, cpus = {}, {}, {}
    for name, cmd, parse in tools:
        out, (wall, cpu), rss = run(cmd, stdin, a.time)
        if a.time and a.runs > 1:
            more = [run(cmd, stdin, a.time)[1] for _ in range(a.runs - 1)] + [(wall, cpu)]
            wall = sorted(w for w, _ in more)[len(more) // 2]
            cpu = sorted(c for _, c in more)[len(more) // 2]
        res = parse(out)
        results[name] = res if a.mangled else demangle_leftovers(res)
        walls[name], cpus[name] = wall, cpu
        if a.time:
            # CPU time (user + sys) is reported too: wall time on a shared machine is noisy
            _, (one, one_cpu), _ = run(cmd, stdin.split("\n", 1)[0] + "\n", a.time)
            rate = a.n / (cpu - one_cpu) if cpu > one_cpu else 0
            print("%-16s wall_s=%.3f cpu_s=%.3f (1 address: wall %.3f cpu %.3f) "
                  "addr/s(cpu)=%d peak_rss_mib=%.1f" % (name, wall, cpu, one, one_cpu, rate, rss))
    if a.time:
        for name in walls:
            if name != "tracetool" and walls["tracetool"] > 0 and cpus["tracetool"] > 0:
                print("%-16s / tracetool: wall %.2fx, cpu %.2fx" %
                      (name, walls[name] / walls["tracetool"], cpus[name] / cpus["tracetool"]))
        refs = [n for n in cpus if n != "tracetool"]
        if refs:
            best = min(refs, key=lambda n: cpus[n])
            print("tracetool / best reference (%s) cpu: %.2fx (target <= 0.25)" %
                  (best, cpus["tracetool"] / cpus[best]))
    ours = results["tracetool"]
    uniq = sorted(set(addrs))
    worst = 100.0
    for name, _, _ in tools[1:]:
        ref = results[name]
        same = sum(1 for x in uniq if ours.get(x) == ref.get(x))
        outer = sum(1 for x in uniq if (ours.get(x) or (("?",),))[-1][0] ==
                    (ref.get(x) or (("?",),))[-1][0])
        pct = 100.0 * same / len(uniq)
        if name == "llvm-symbolizer":
            worst = pct
        print("%-16s full chain %.2f %%  outer function %.2f %%  (%d addresses)" %
              (name, pct, 100.0 * outer / len(uniq), len(uniq)))
        shown = 0
        for x in uniq:
            if ours.get(x) != ref.get(x) and shown < a.show:
                print("  0x%x\n    tracetool: %s\n    %s: %s" % (x, ours.get(x), name, ref.get(x)))
                shown += 1
    print("agreement_llvm=%.2f" % worst)


main()
