#!/usr/bin/env python3
"""dmtracedump as oracle for `tracetool art` (spec/art-trace.md 7.4): for every legacy fixture
script tests/data/art/*.txt marked "# oracle" and a random 20,002-record trace, the .trace is read by both tools:
(1) `dmtracedump -o` vs `art --dump --units us --clock first` (the "\t<file>" suffix that
dmtracedump prints after 5-field method lines is stripped, 7.3); (2) dmtracedump's exclusive
and inclusive sections and "Total cycles" vs `art --profile --format json` on the first clock;
(3) the same profile comparison on what `export --format art-trace` writes from each legacy
fixture and each streaming fixture marked "# oracle-export" (dmtracedump cannot read streaming files, 7.3).
Skipped with a notice when dmtracedump is not installed. Usage: check-oracle-art.py BUILD"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

build = sys.argv[1] if len(sys.argv) > 1 else "build"
dm = shutil.which("dmtracedump")
if not dm:
    print("oracle: skipped: dmtracedump is not installed (apt-get install dmtracedump)")
    print("oracle: 0 passed, 0 failed")
    sys.exit(0)
tt = os.path.join(build, "tracetool")
gen = os.path.join(build, "gen", "gen_art")
passed = failed = 0


def fail(name, msg):
    global failed
    failed += 1
    print("FAIL oracle %s: %s" % (name, msg))


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def dm_profile(text):
    """exclusive us and (calls, inclusive us) per raw name, and Total cycles."""
    excl, incl, total = {}, {}, None
    sec = 0
    for line in text.splitlines():
        m = re.match(r"Total cycles: (\d+)", line)
        if m:
            total = int(m.group(1))
        if line.startswith("Exclusive elapsed times for each method"):
            sec = 1
        elif line.startswith("Inclusive elapsed times"):
            sec = 2
        elif line.startswith("Exclusive elapsed time for each class") or \
                line.startswith("Exclusive elapsed time for each method, summed"):
            sec = 3
        name_of = lambda s: s.split("\t")[0].strip()
        if sec == 1:
            m = re.match(r"\s*(\d+)\s+[\d.]+\s+[\d.]+\s+\[\d+\]\s+(.*)$", line)
            if m:
                excl[name_of(m.group(2))] = int(m.group(1))
        elif sec == 2:
            m = re.match(r"\[\d+\]\s+[\d.]+%\s+(\d+)\+(\d+)\s+(\d+)\s+(.*)$", line)
            if m:
                incl[name_of(m.group(4))] = (int(m.group(1)) + int(m.group(2)),
                                             int(m.group(3)))
    return excl, incl, total



def compare_profile(name, dm_text, prof):
    """dmtracedump's profile (first clock) against tracetool's JSON profile."""
    global passed
    cpu = prof["cpu_span_us"] is not None
    excl, incl, total = dm_profile(dm_text)
    excl.pop("(toplevel)", None)  # time between top-level calls: no method of tracetool's
    span = prof["cpu_span_us"] if cpu else prof["span_us"]
    bad = []
    if total != span:
        bad.append("Total cycles %s, tracetool span %s" % (total, span))
    if len(excl) != sum(1 for m in prof["methods"]
                        if (m["cpu_self_us"] if cpu else m["self_us"])):
        bad.append("%d methods with exclusive time, tracetool has a different count"
                   % len(excl))
    for m in prof["methods"]:
        raw = m["raw_name"]
        s = m["cpu_self_us"] if cpu else m["self_us"]
        tot = m["cpu_total_us"] if cpu else m["total_us"]
        calls = m["calls"] + m["recursive_calls"]
        if s and excl.get(raw) != s:
            bad.append("%s: exclusive %s vs self %s" % (raw, excl.get(raw), s))
        # dmtracedump lists only methods with non-zero times (7.2)
        if (tot or raw in incl) and incl.get(raw) != (calls, tot):
            bad.append("%s: inclusive %s vs calls/total %s" % (raw, incl.get(raw),
                                                              (calls, tot)))
    if bad:
        fail(name, "profile differs: " + "; ".join(bad[:3]))
    else:
        passed += 1


tmp = tempfile.mkdtemp()
try:
    scripts = [s for s in sorted(glob.glob("tests/data/art/*.txt"))
               if re.search(r"# oracle($|[^-])", open(s).read(), re.M)]
    # plus a random well-nested 20,002-record trace (gen_art bench: 2,000 methods, 2 threads)
    for script in scripts + ["bench"]:
        name = os.path.basename(script)[:-4] if script != "bench" else "bench-20002"
        trace = os.path.join(tmp, name + ".trace")
        g = [gen, script, trace] if script != "bench" else [gen, "bench", "20002", trace]
        if run(g).returncode:
            fail(name, "gen_art failed")
            continue
        # (1) records
        d = run([dm, "-o", trace])
        t = run([tt, "art", "--dump", "--units", "us", "--clock", "first", trace])
        dl = [re.sub(r"\t.*$", "", l) for l in d.stdout.splitlines()]
        if t.returncode or dl != t.stdout.splitlines():
            fail(name, "--dump differs from dmtracedump -o")
            for a, b in zip(dl, t.stdout.splitlines()):
                if a != b:
                    print("  dmtracedump: %r\n  tracetool:   %r" % (a, b))
                    break
        else:
            passed += 1
        # (2) profile on the first clock
        p = run([dm, trace])
        j = run([tt, "art", "--profile", "--format", "json", trace])
        if j.returncode:
            fail(name, "art --profile failed: " + j.stderr.strip())
            continue
        compare_profile(name, p.stdout, json.loads(j.stdout))
    # (3) export --format art-trace (6.2): dmtracedump reads the written file, streaming
    # files included, and profiles it as tracetool profiles the original
    streaming = [s for s in sorted(glob.glob("tests/data/art/*.txt"))
                 if "# oracle-export" in open(s).read()]
    for script in scripts + streaming:
        name = "export-" + os.path.basename(script)[:-4]
        trace = os.path.join(tmp, name + ".trace")
        out = os.path.join(tmp, name + ".exported.trace")
        if run([gen, script, trace]).returncode:
            fail(name, "gen_art failed")
            continue
        e = run([tt, "export", "--format", "art-trace", "-o", out, trace])
        j = run([tt, "art", "--profile", "--format", "json", trace])
        p = run([dm, out])
        if e.returncode or j.returncode or p.stderr.strip():
            fail(name, "export or dmtracedump failed: " + (e.stderr + p.stderr).strip())
            continue
        compare_profile(name, p.stdout, json.loads(j.stdout))
finally:
    shutil.rmtree(tmp)
print("oracle: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
