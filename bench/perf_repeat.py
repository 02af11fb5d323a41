#!/usr/bin/env python3
"""Repeats `perf script` text until it holds N samples, shifting the times of each copy past
the previous one, so that a few seconds of a real recording make a 1M-sample input.
Usage: bench/perf_repeat.py IN N OUT  (a sample is a blank-line separated block whose header
carries '<sec>.<frac>:'; copies keep the digits of the fraction)."""
import re, sys

src, want, dst = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, "rb").read()
blocks = [b for b in data.split(b"\n\n") if b.strip()]
ts_re = re.compile(rb" (\d+)\.(\d+):")
parts = []
for b in blocks:
    m = ts_re.search(b[: b.find(b"\n") if b"\n" in b else len(b)])
    if not m:
        continue
    sec, frac = m.group(1), m.group(2)
    ns = int(sec) * 10 ** len(frac) + int(frac)
    parts.append((b[: m.start(1)], ns, len(frac), b[m.end(2):]))
if not parts:
    sys.exit("perf_repeat.py: no timed samples in " + src)
span = parts[-1][1] - parts[0][1] + 1000
n = 0
with open(dst, "wb") as out:
    k = 0
    while n < want:
        off = k * span
        chunk = []
        for pre, ns, fd, post in parts:
            if n >= want:
                break
            t = ns + off
            chunk.append(b"%s%d.%0*d%s\n\n" % (pre, t // 10 ** fd, fd, t % 10 ** fd, post))
            n += 1
        out.write(b"".join(chunk))
        k += 1
