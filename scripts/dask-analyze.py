#!/usr/bin/env python3
"""Map/reduce of tracetool on a Dask distributed cluster (tracetool-merge(1), EXAMPLES).

usage: dask-analyze.py -o OUT.db [--shards N] [--workers W] [--fan-in K]
                       [--scheduler ADDRESS] [--work DIR] [--tracetool PATH]
                       [--analyze-opt OPT]... INPUT...

The inputs are split into N shards (contiguous, in argument order, sizes differing by at
most one: 6 inputs in 4 shards are 2+2+1+1); with fewer than N inputs, one shard per input. Map: each shard is one
`tracetool analyze -o DIR/part-I.db` task. Reduce: the shard databases are merged K at a
time with `tracetool merge` tasks, level by level, into OUT.db (merge is associative and
skips traces already present, so the tree shape does not change the result and a task that
is run twice is harmless). Without --scheduler a LocalCluster of W worker threads in this
process (in-process comms, no network listener; each task runs a tracetool process) is
started and stopped; with it an existing cluster is used
(its workers must see the same file system paths, e.g. a shared volume). --analyze-opt
passes one option to every analyze (repeat it: --analyze-opt=-m --analyze-opt=map.txt).
Every analyze runs in the current directory, so relative inputs and options mean what they
mean here and paths are stored as given, as one analyze of all the inputs stores them. A
shard without a trace (mapping files only) gives no database and is left out of the merges.
Prints one JSON line: shards, merge tasks, levels, and the merged summary.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


# analyze's messages for a shard without a trace (only mapping files, or only files skipped)
NO_TRACE = ("analyze: no trace among the inputs", ": no trace found in the directory")


def analyze(tracetool, cwd, out, opts, inputs):
    """Map task: one shard analysed into its own database, in the directory the inputs and
    options were given relative to (paths are stored as given, as one analyze stores them).
    A shard without a trace gives no database (path None)."""
    r = subprocess.run([tracetool, "analyze", "-o", out] + opts + inputs,
                       cwd=cwd if os.path.isdir(cwd) else None,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    last = r.stderr.strip().splitlines()[-1:] or [""]
    if r.returncode == 2 and any(m in last[0] for m in NO_TRACE):
        return {"path": None}
    if r.returncode not in (0, 1):
        raise RuntimeError("analyze %s: exit %d: %s" % (out, r.returncode, r.stderr.strip()))
    return {"path": out}


def merge(tracetool, out, *parts):
    """Reduce task: databases merged into one (parts: the results of earlier tasks; those
    without a database are left out, and none at all gives none)."""
    paths = [p["path"] for p in parts if p["path"]]
    if not paths:
        return {"path": None, "summary": None}
    r = subprocess.run([tracetool, "merge", "--format", "json", "-o", out] + paths,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("merge %s: exit %d: %s" % (out, r.returncode, r.stderr.strip()))
    return {"path": out, "summary": json.loads(r.stdout)}


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


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--fan-in", type=int, default=4)
    ap.add_argument("--scheduler")
    ap.add_argument("--work")
    ap.add_argument("--tracetool", default="tracetool")
    ap.add_argument("--analyze-opt", action="append", default=[])
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    if a.shards < 1 or a.workers < 1 or a.fan_in < 2:
        ap.error("--shards and --workers must be >= 1, --fan-in >= 2")
    from dask.distributed import Client, LocalCluster  # python3-distributed

    tracetool = a.tracetool
    if os.sep not in tracetool:
        import shutil
        tracetool = shutil.which(tracetool) or tracetool
    out = os.path.abspath(a.output)
    work = a.work or tempfile.mkdtemp(prefix="tracetool-dask-", dir=os.path.dirname(out))
    os.makedirs(work, exist_ok=True)
    shards = split(a.inputs, a.shards)
    cluster = None
    if a.scheduler:
        client = Client(a.scheduler)
    else:
        # the work is done by tracetool processes: worker threads in this process are
        # enough, talk in-process (no network listener) and stop with it, where worker
        # processes had to be killed at close ("still alive after 3.2 seconds") and could
        # print a heartbeat's CommClosedError traceback
        cluster = LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=False,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        cwd = os.getcwd()
        level = [client.submit(analyze, tracetool, cwd, os.path.join(work, "part-%d.db" % i),
                               a.analyze_opt, s, pure=False)
                 for i, s in enumerate(shards)]
        tasks = depth = 0
        while True:
            depth += 1
            final = len(level) <= a.fan_in
            nxt = []
            for j in range(0, len(level), a.fan_in):
                dst = out if final else os.path.join(work, "merge-%d-%d.db" % (depth, j))
                nxt.append(client.submit(merge, tracetool, dst, *level[j:j + a.fan_in],
                                         pure=False))
                tasks += 1
            level = nxt
            if final:
                break
        summary = level[0].result()["summary"]
        if summary is None:
            raise RuntimeError("no trace among the inputs of any shard")
    finally:
        client.close()
        if cluster:
            cluster.close()
        if not a.work:  # the temporary directory goes, also when a task failed
            for f in os.listdir(work):
                os.unlink(os.path.join(work, f))
            os.rmdir(work)
    print(json.dumps({"shards": len(shards), "merge_tasks": tasks, "levels": depth,
                      "merged": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
