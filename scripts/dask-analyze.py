#!/usr/bin/env python3
"""Map/reduce of tracetool on a Dask distributed cluster (tracetool-merge(1), EXAMPLES).

usage: dask-analyze.py -o OUT.db [--shards N] [--workers W] [--threads] [--fan-in K]
                       [--scheduler ADDRESS] [--work DIR] [--tracetool PATH]
                       [--analyze-opt OPT]... INPUT...

First one task runs `tracetool analyze --dry-run` on all the inputs (with the --analyze-opt
options): tracetool's own detection by content names the mapping inputs (methodMapping.txt,
ignoreMethodMapping.txt, a ProGuard mapping.txt), which every shard is given, ahead of its
own inputs, so every shard is analysed with the mappings one analyze of all the inputs would
use. (A mapping found inside a directory INPUT would reach that directory's shard only: with
more than one shard the script refuses it; give it as an INPUT or with -m, which every shard
gets: a mapping given with an --analyze-opt option is not refused where else it lies.) The other
inputs are split into N shards (contiguous, in argument order, sizes differing by at most
one: 6 inputs in 4 shards are 2+2+1+1); with fewer than N inputs, one shard per input. Map:
each shard is one `tracetool analyze -o DIR/part-I.db` task. Reduce: the shard databases are
merged K at a time with `tracetool merge` tasks, level by level, into OUT.db (merge is
associative and skips traces already present, so the tree shape does not change the result
and a task that is run twice is harmless). Without --scheduler a LocalCluster of W worker
processes listening on 127.0.0.1 only is started and stopped (--threads: W worker threads
in this process instead, with in-process comms: no listener, and no worker process to
start, which takes seconds each on a loaded machine); with it an existing cluster is used
(its workers must see the same file system paths, e.g. a shared volume). --analyze-opt
passes one option to every analyze (repeat it: --analyze-opt=-m --analyze-opt=map.txt).
Every task (analyze and merge) runs tracetool in the current directory, so relative inputs,
options and --work mean what they mean here whatever the workers' directory, and paths are
stored as given, as one analyze of all the inputs stores them. A
shard without a trace (a btrace sampling-mapping only) gives no database and is left out of
the merges.
Prints one JSON line: shards, merge tasks, levels, and the merged summary. Exit status: the
worst of the shards' analyze statuses, as one analyze of all the inputs (analyze(1) EXIT
STATUS): 0; 1 when a shard's analyze exits 1 (--keep-going and an input failed, or a
--fail-on condition tripped: its database is written and merged; each line tracetool printed
is repeated on standard error after "dask-analyze.py: " and the shard; --fail-on counts
within one shard, so a threshold :N trips when one shard holds N); a task's tracetool failure
(exit 2) ends the script with one line on standard error, "dask-analyze.py: " and the shard
or merge (its inputs) and tracetool's own last message, and tracetool's exit status (2 for
bad input); 2 for a bad option, no trace among the inputs, a python3 without
Dask distributed (install python3-distributed) or a cluster that fails (its error in one
line).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PROG = "dask-analyze.py"

# analyze's messages for a shard without a trace (only mapping files, or only files skipped)
NO_TRACE = ("analyze: no trace among the inputs", ": no trace found in the directory")

# the kinds (analyze --dry-run) of the mappings every shard needs; a btrace sampling-mapping
# (btrace_mapping) is read beside its sampling file instead
MAPPING_KINDS = ("mapping", "ignore_mapping", "proguard")


class Failed(Exception):
    """A task's tracetool failed: the one line to print and the exit status."""

    def __init__(self, line, rc):
        Exception.__init__(self, line)
        self.rc = rc


def last_line(text):
    """tracetool's own message: the last line it printed on standard error."""
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return lines[-1] if lines else "(no message)"


def run_in(cwd):
    """The directory a task runs tracetool in (the script's, where the worker sees it)."""
    return cwd if os.path.isdir(cwd) else None


def detect(tracetool, cwd, opts, inputs):
    """First task: tracetool's detection of every input (analyze --dry-run, with the same
    options as the shards): a list of {path, kind, status}, or an error."""
    r = subprocess.run([tracetool, "analyze"] + opts + ["--dry-run", "--format", "json"] +
                       inputs, cwd=run_in(cwd), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        return {"error": "detecting the inputs: " + last_line(r.stderr), "rc": r.returncode}
    return {"inputs": json.loads(r.stdout)["inputs"]}


def analyze(tracetool, cwd, out, opts, inputs, what):
    """Map task: one shard analysed into its own database, in the directory the inputs and
    options were given relative to (paths are stored as given, as one analyze stores them).
    A shard without a trace gives no database (path None); a failure gives an error (tasks
    return it rather than raise, so that Dask logs no task failure)."""
    r = subprocess.run([tracetool, "analyze", "-o", out] + opts + inputs, cwd=run_in(cwd),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    last = last_line(r.stderr)
    if r.returncode == 2 and any(m in last for m in NO_TRACE):
        return {"path": None}
    if r.returncode == 1:  # --keep-going or --fail-on: the database is written, the run fails
        return {"path": out, "rc": 1, "notes": ["%s: %s" % (what, x) for x in
                                                r.stderr.splitlines() if x.strip()]}
    if r.returncode != 0:
        return {"path": None, "error": "%s: %s" % (what, last), "rc": r.returncode}
    return {"path": out}


def merge(tracetool, cwd, out, *parts):
    """Reduce task: databases merged into one, in the directory the script was started in
    (parts: the results of earlier tasks; those without a database are left out, and none
    at all gives none; the first error of a part is passed on; the messages of shards that
    exited with status 1 are passed on with the worst status)."""
    for p in parts:
        if p.get("error"):
            return p
    notes = [x for p in parts for x in p.get("notes", [])]
    rc = max(p.get("rc", 0) for p in parts)
    paths = [p["path"] for p in parts if p["path"]]
    if not paths:
        return {"path": None, "summary": None, "notes": notes, "rc": rc}
    r = subprocess.run([tracetool, "merge", "--format", "json", "-o", out] + paths,
                       cwd=run_in(cwd), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        return {"path": None, "rc": r.returncode, "error": "merge into %s (%s): %s" %
                (out, " ".join(paths), last_line(r.stderr))}
    return {"path": out, "summary": json.loads(r.stdout), "notes": notes, "rc": rc}


def split(inputs, n):
    """The inputs in min(n, len(inputs)) contiguous shards in argument order, sizes differing
    by at most one (the first len % n shards have one input more)."""
    n = min(n, len(inputs))
    q, r = divmod(len(inputs), n)
    shards, at = [], 0
    for i in range(n):
        size = q + (i < r)
        shards.append(inputs[at:at + size])
        at += size
    return shards


def given_in(opts, path):
    """Whether path is an option's value among the --analyze-opt options (-m PATH, -mPATH,
    --long=PATH): every shard is given it already."""
    return any(o == path or o.endswith("=" + path) or
               (o[:1] == "-" and o[1:2] not in ("", "-") and o[2:] == path) for o in opts)


def mapping_inputs(inputs, opts, detected):
    """The INPUTs that are mappings every shard needs (in argument order), by tracetool's
    detection, and the mappings found inside directory INPUTs (as (path, kind, dir)); a
    mapping given with an --analyze-opt option is neither (each shard gets the options)."""
    args = set(inputs)
    maps, in_dirs = [], []
    for d in detected:
        if d["status"] != "mapping" or d["kind"] not in MAPPING_KINDS:
            continue
        if d["path"] not in args and given_in(opts, d["path"]):
            continue
        if d["path"] in args:
            if d["path"] not in maps:
                maps.append(d["path"])
            continue
        in_dirs += [(d["path"], d["kind"], x) for x in inputs
                    if d["path"].startswith(x.rstrip("/") + "/")][:1]
    return maps, in_dirs


def describe(i, n, shard):
    """A shard named for a message: its number and its inputs (first and last of many)."""
    names = " ".join(shard) if len(shard) <= 3 else "%s ... %s, %d inputs" % (
        shard[0], shard[-1], len(shard))
    return "analyze of shard %d of %d (%s)" % (i + 1, n, names)


def run(client, a, tracetool, out, work):
    """The map/reduce on the cluster; the printed result (a dict), or Failed."""
    cwd = os.getcwd()
    found = client.submit(detect, tracetool, cwd, a.analyze_opt, a.inputs, pure=False).result()
    if found.get("error"):
        raise Failed(found["error"], found["rc"])
    maps, in_dirs = mapping_inputs(a.inputs, a.analyze_opt, found["inputs"])
    traces = [x for x in a.inputs if x not in maps]
    if not traces:
        raise Failed("analyze: no trace among the inputs", 2)
    shards = split(traces, a.shards)
    if len(shards) > 1 and in_dirs:
        raise Failed("%s: a %s found in directory %s would reach only that directory's "
                     "shard: give it as an INPUT or with --analyze-opt=-m "
                     "(--analyze-opt=--proguard)" % in_dirs[0], 2)
    level = [client.submit(analyze, tracetool, cwd, os.path.join(work, "part-%d.db" % i),
                           a.analyze_opt, maps + s, describe(i, len(shards), s), pure=False)
             for i, s in enumerate(shards)]
    tasks = depth = 0
    while True:
        depth += 1
        final = len(level) <= a.fan_in
        nxt = []
        for j in range(0, len(level), a.fan_in):
            dst = out if final else os.path.join(work, "merge-%d-%d.db" % (depth, j))
            nxt.append(client.submit(merge, tracetool, cwd, dst, *level[j:j + a.fan_in],
                                     pure=False))
            tasks += 1
        level = nxt
        if final:
            break
    res = level[0].result()
    if res.get("error"):
        raise Failed(res["error"], res["rc"])
    if res["summary"] is None:
        raise Failed("analyze: no trace among the inputs of any shard", 2)
    return {"shards": len(shards), "merge_tasks": tasks, "levels": depth,
            "merged": res["summary"]}, res["notes"], res["rc"]


def main():
    ap = argparse.ArgumentParser(prog=PROG, usage=__doc__.split("\n\n")[1])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--threads", action="store_true")
    ap.add_argument("--fan-in", type=int, default=4)
    ap.add_argument("--scheduler")
    ap.add_argument("--work")
    ap.add_argument("--tracetool", default="tracetool")
    ap.add_argument("--analyze-opt", action="append", default=[])
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    if a.shards < 1 or a.workers < 1 or a.fan_in < 2:
        ap.error("--shards and --workers must be >= 1, --fan-in >= 2")
    # Dask's own log messages (a worker's heartbeat racing the scheduler's close, a nanny
    # killing a slow worker process) are noise on standard error: the script reports every
    # task failure itself, with tracetool's message. Its own cluster logs only critical
    # messages, in this process and in the worker processes (which read the environment
    # when they import distributed), unless DASK_LOGGING__DISTRIBUTED is set already.
    quiet = not a.scheduler and "DASK_LOGGING__DISTRIBUTED" not in os.environ
    if quiet:
        os.environ["DASK_LOGGING__DISTRIBUTED"] = "critical"
    try:
        import logging
        from dask.distributed import Client, LocalCluster, Nanny
        if quiet:  # also the event loop's (tornado's, asyncio's) messages in this process
            for name in ("tornado", "tornado.application", "asyncio"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
    except ImportError as e:
        sys.stderr.write("%s: %s lacks Dask distributed (%s): install python3-distributed "
                         "(Debian: apt install python3-distributed, then run it with "
                         "/usr/bin/python3) or pip install distributed\n" %
                         (PROG, sys.executable, e))
        return 2

    class PatientNanny(Nanny):
        """Gives its idle worker process the time to stop (a loaded machine takes more than
        the default 3.2 s, and the nanny then kills it with a warning each)."""

        async def close(self, timeout=60, reason="nanny-close"):
            return await Nanny.close(self, timeout=timeout, reason=reason)

    tracetool = a.tracetool
    if os.sep not in tracetool:
        import shutil
        tracetool = shutil.which(tracetool) or tracetool
    out = os.path.abspath(a.output)
    work = a.work or tempfile.mkdtemp(prefix="tracetool-dask-", dir=os.path.dirname(out))
    os.makedirs(work, exist_ok=True)
    cluster = client = None
    try:
        if a.scheduler:
            client = Client(a.scheduler)
        elif a.threads:  # in-process worker threads
            cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=False,
                                   dashboard_address=":0",
                                   silence_logs=logging.CRITICAL if quiet else False)
        else:  # worker processes on 127.0.0.1 (issue 17)
            cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=":0",
                                   worker_class=PatientNanny,
                                   silence_logs=logging.CRITICAL if quiet else False)
        if cluster:
            client = Client(cluster)
        result, notes, rc = run(client, a, tracetool, out, work)
    except Failed as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return e.rc
    except (OSError, TimeoutError) as e:  # the cluster: a scheduler that cannot be reached
        sys.stderr.write("%s: the Dask cluster failed: %s: %s\n" % (PROG, type(e).__name__,
                                                                      e))
        return 2
    finally:
        if client:
            client.close()
        if cluster:
            cluster.close()
        if not a.work:  # the temporary directory goes, also when a task failed
            for f in os.listdir(work):
                os.unlink(os.path.join(work, f))
            os.rmdir(work)
    print(json.dumps(result))
    for x in notes:  # shards that exited with status 1 (analyze(1) EXIT STATUS)
        sys.stderr.write("%s: %s\n" % (PROG, x))
    return rc


if __name__ == "__main__":
    sys.exit(main())
