#!/usr/bin/env python3
"""Runs one command, prints 'wall_s=<seconds> peak_rss_mib=<MiB> rc=<exit>' on stderr.
Usage: bench/measure.py [-o OUTFILE] CMD ARG...  (stdout of CMD goes to OUTFILE or /dev/null)"""
import os, resource, subprocess, sys, time

args = sys.argv[1:]
out = os.devnull
if len(args) >= 2 and args[0] == "-o":
    out, args = args[1], args[2:]
with open(out, "wb") as f:
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdout=f)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
rc = os.waitstatus_to_exitcode(status)
print(f"wall_s={wall:.3f} peak_rss_mib={ru.ru_maxrss / 1024:.1f} rc={rc}", file=sys.stderr)
sys.exit(0 if rc == 0 else 1)
