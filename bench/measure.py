#!/usr/bin/env python3
"""Runs one command, prints 'wall_s=<seconds> peak_rss_mib=<MiB> rc=<exit> cpu_s=<seconds>' on
stderr.
Usage: bench/measure.py [-o OUTFILE] CMD ARG...  (stdout of CMD goes to OUTFILE or /dev/null)

Peak RSS: Linux carries the parent's high-water mark into a child across fork/exec, so a
child of this Python process would report at least Python's own size. When GNU time is
installed (/usr/bin/time, Debian package `time`) the command is run under it, which forks
from a small image and reports the command's own peak; otherwise the figure is an upper
bound and is marked with '>='."""
import os, subprocess, sys, tempfile, time

args = sys.argv[1:]
out = os.devnull
if len(args) >= 2 and args[0] == "-o":
    out, args = args[1], args[2:]
gnu_time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
with open(out, "wb") as f, tempfile.NamedTemporaryFile("r") as tf:
    cmd = [gnu_time, "-f", "%M", "-o", tf.name] + args if gnu_time else args
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=f)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    rss_kib, mark = ru.ru_maxrss, ">="
    if gnu_time:
        lines = [l for l in tf.read().split("\n") if l.strip().isdigit()]
        if lines:
            rss_kib, mark = int(lines[-1]), ""
rc = os.waitstatus_to_exitcode(status)
cpu = ru.ru_utime + ru.ru_stime  # the command's (and GNU time's, negligible) CPU seconds
print(f"wall_s={wall:.3f} peak_rss_mib={mark}{rss_kib / 1024:.1f} rc={rc} cpu_s={cpu:.3f}",
      file=sys.stderr)
sys.exit(0 if rc == 0 else 1)
