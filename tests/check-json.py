#!/usr/bin/env python3
# Every JSON and JSON-lines output of every command, on every input of samples/ and
# tests/data/ the command accepts, must parse with a real JSON parser (issue 11 item 6:
# hand-written writers broke past a fixed depth). Usage: tests/check-json.py [BUILD]; run
# from the repository root; prints "json: N passed, N failed" (one check per output).
import glob
import json
import os
import subprocess
import sys
import tempfile
import threading

build = sys.argv[1] if len(sys.argv) > 1 else "build"
top = os.getcwd()
tt = os.path.join(top, build, "tracetool")
MAP = "samples/methodMapping.txt"

# call trees are flat node lists, but other outputs may still nest: keep a deep parser
sys.setrecursionlimit(200000)
threading.stack_size(512 * 1024 * 1024)

passed = failed = 0
accepted = {}  # template name -> outputs checked


def inputs():
    out = []
    for d in ("samples", "tests/data"):
        for p in sorted(glob.glob(d + "/**", recursive=True)):
            if os.path.isfile(p) and os.path.basename(p) != "README" and \
                    not p.endswith((".c", ".sh", ".py")):
                out.append(p)
    return out


def parse(text, jsonl):
    res = {}

    def work():
        try:
            if jsonl:
                for i, line in enumerate(text.splitlines()):
                    if line.strip():
                        json.loads(line)
            else:
                json.loads(text)
        except Exception as e:  # noqa: BLE001 - any parse failure is the finding
            res["err"] = "%s" % e
        except RecursionError as e:
            res["err"] = "recursion: %s" % e

    t = threading.Thread(target=work)
    t.start()
    t.join()
    return res.get("err")


def check(name, argv, jsonl, stdout_file=None, must=False):
    """Runs argv; an accepted run (exit 0 or 1) must print valid JSON. Rejected inputs
    (exit 2) are not checked unless must is set."""
    global passed, failed
    r = subprocess.run([tt] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode > 128 or "runtime error" in err or "Sanitizer" in err:
        print("FAIL %s: crashed (exit %d): %s" % (name, r.returncode, " ".join(argv)))
        failed += 1
        return
    if r.returncode not in (0, 1):
        if must:
            print("FAIL %s: exit %d: %s\n%s" % (name, r.returncode, " ".join(argv), err[:300]))
            failed += 1
        return
    data = r.stdout
    if stdout_file:
        with open(stdout_file, "rb") as f:
            data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print("FAIL %s: not UTF-8 (%s): %s" % (name, e, " ".join(argv)))
        failed += 1
        return
    if not jsonl and not text.strip():
        print("FAIL %s: empty output: %s" % (name, " ".join(argv)))
        failed += 1
        return
    e = parse(text, jsonl)
    if e:
        print("FAIL %s: invalid JSON%s: %s: %s" % (name, " lines" if jsonl else "", e,
                                                    " ".join(argv)))
        failed += 1
        return
    passed += 1
    accepted[name] = accepted.get(name, 0) + 1


def main():
    files = inputs()
    tmp = tempfile.mkdtemp(prefix="tt-json-")
    per_input = [
        ("samples-json", ["samples", "--format", "json"], False),
        ("samples-json-inverted", ["samples", "--format", "json", "--inverted",
                                   "--min-percent", "0"], False),
        ("export-chrome", ["export", "--format", "chrome"], False),
        ("export-chrome-be", ["export", "--format", "chrome", "--chrome-events", "be",
                              "--chrome-samples", "--mark-gaps"], False),
        ("export-speedscope", ["export", "--format", "speedscope"], False),
        ("beat-json", ["beat", "--format", "json", "--trim", "0"], False),
        ("beat-matrix", ["beat", "--format", "matrix"], False),
        ("report-json", ["report", "--format", "json"], False),
        ("report-jsonl", ["report", "--format", "jsonl"], True),
        ("report-group-json", ["report", "--group", "--format", "json"], False),
        ("frames-json", ["frames", "--format", "json"], False),
        ("frames-jsonl-a1", ["frames", "--format", "jsonl", "--model", "matrix-a1"], True),
        ("frames-jsonl-a2", ["frames", "--format", "jsonl", "--model", "matrix-a2"], True),
        ("frames-jsonl-b", ["frames", "--format", "jsonl", "--model", "matrix-b"], True),
        ("frames-jsonl-c", ["frames", "--format", "jsonl", "--model", "matrix-c"], True),
        ("startup-json", ["startup", "--format", "json"], False),
        ("startup-jsonl", ["startup", "--format", "jsonl"], True),
        ("startup-matrix-jsonl", ["startup", "--matrix-compat", "--format", "jsonl"], True),
        ("startup-matrix-json", ["startup", "--matrix-compat", "--format", "json"], False),
        ("symbolicate-json", ["symbolicate", "--symbols", "samples", "--format", "json"], False),
        ("symbolicate-jsonl", ["symbolicate", "--symbols", "samples", "--format", "jsonl"],
         True),
    ]
    for f in files:
        for name, argv, jsonl in per_input:
            check(name, argv + [f], jsonl)
        check("diff-json", ["diff", "--format", "json", f, f], False)
        db = os.path.join(tmp, "one.db")
        check("analyze-json", ["analyze", "--format", "json", "-o", db, f], False)
    # mapped method-beat and report inputs: names with blanks, '$', '<init>', escapes
    check("beat-json", ["beat", "-m", MAP, "--format", "json", "--trim", "0",
                        "samples/beat.bin"], False, must=True)
    check("beat-json", ["beat", "-m", "tests/data/deep-beat-mapping.txt", "--format", "json",
                        "--trim", "0", "tests/data/deep-beat.txt"], False, must=True)
    for fmt in ("chrome", "speedscope"):
        check("export-" + fmt, ["export", "--format", fmt, "-m", MAP, "samples/beat.bin"],
              False, must=True)
        check("export-" + fmt, ["export", "--format", fmt, "-m",
                                "tests/data/deep-beat-mapping.txt", "tests/data/deep-beat.txt"],
              False, must=True)
        check("export-" + fmt, ["export", "--format", fmt, "-o", os.path.join(tmp, "x.json"),
                                "samples/sampling.bin"], False, os.path.join(tmp, "x.json"),
              must=True)
    for fmt, jsonl in (("json", False), ("jsonl", True)):
        check("report-" + fmt, ["report", "-m", MAP, "--proguard", "samples/mapping.txt",
                                "--format", fmt, "samples/reports.jsonl"], jsonl, must=True)
    # diff of two different builds: gen_diffpair's regression pair (tests/cli/diff/mkpair.sh)
    env = dict(os.environ, TT_TMP=tmp,
               PATH=os.path.dirname(tt) + ":" + os.path.join(os.path.dirname(tt), "gen") + ":" +
               os.environ.get("PATH", ""))
    r = subprocess.run(["sh", "../cli/diff/mkpair.sh", "cj", "regress"], cwd="tests/data",
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode:
        print("FAIL diff pair: mkpair.sh exit %d: %s" % (r.returncode, r.stderr.decode()[:300]))
        global failed
        failed += 1
    else:
        pair = os.path.join(tmp, "diff", "cj")
        check("diff-json", ["diff", "--format", "json", pair + "/base.db", pair + "/new.db"],
              False, must=True)
    check("diff-json", ["diff", "--format", "json", "samples/stacks.folded",
                        "tests/data/deep.folded"], False, must=True)
    # symbolicate raw addresses: functions of the tracetool binary itself
    nm = subprocess.run(["nm", tt], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    addrs = ["0x" + ln.split()[0] for ln in nm.stdout.decode().splitlines()
             if len(ln.split()) == 3 and ln.split()[1] in "Tt"][:50]
    for fmt, jsonl in (("json", False), ("jsonl", True)):
        check("symbolicate-addr-" + fmt, ["symbolicate", "-e", tt, "-a", "-f", "-i", "-C",
                                          "--format", fmt] + addrs + ["0x0", "0xffffffff"],
              jsonl, must=True)
    # a database of every sample input, every table and view queried
    db = os.path.join(tmp, "all.db")
    r = subprocess.run([tt, "analyze", "--skip-unknown", "-m", MAP, "-o", db] +
                       [f for f in files if f.startswith("samples/")],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode not in (0, 1):
        print("FAIL analyze of samples/: exit %d\n%s" % (r.returncode, r.stderr.decode()[:300]))
        failed += 1
    else:
        q = subprocess.run([tt, "query", "--format", "jsonl", db,
                            "SELECT name FROM sqlite_master WHERE type IN ('table','view') "
                            "ORDER BY name"], stdout=subprocess.PIPE)
        names = [json.loads(ln)["name"] for ln in q.stdout.decode().splitlines() if ln]
        for n in names:
            for fmt, jsonl in (("json", False), ("jsonl", True)):
                check("query-" + fmt, ["query", "--format", fmt, db,
                                       'SELECT * FROM "%s" LIMIT 2000' % n], jsonl, must=True)
    subprocess.run(["rm", "-rf", tmp])
    # every template must have been exercised at least once
    names = [n for n, _, _ in per_input] + ["diff-json", "analyze-json", "query-json",
                                            "query-jsonl", "symbolicate-addr-json",
                                            "symbolicate-addr-jsonl"]
    for n in names:
        if not accepted.get(n):
            print("FAIL %s: no input was accepted (nothing checked)" % n)
            failed += 1
    for n in sorted(accepted):
        print("ok %s: %d outputs" % (n, accepted[n]))
    print("json: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


sys.exit(main())
