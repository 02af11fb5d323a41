#!/usr/bin/env python3
"""CPU seconds of a command's main thread and of its other threads (analyze --jobs: the one
SQLite writer and the workers), read from /proc/PID/task/*/schedstat (nanoseconds on a CPU)
every 2 ms while it runs;
prints 'main_cpu_s=<s> other_cpu_s=<s> serial=<main share> amdahl_2=<1/(s + (1 - s)/2)>'.
A thread's last 2 ms before it exits can be missed, so the figures are approximate; the
main thread is taken as the serial part (on 2 cores it runs beside the workers).
Usage: bench/threads.py CMD ARG...  (stdout of CMD goes to /dev/null)"""
import os, subprocess, sys, time

p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
cpu = {}  # tid -> nanoseconds on a CPU, the last value read
while p.poll() is None:
    try:
        tids = os.listdir("/proc/%d/task" % p.pid)
    except OSError:
        break
    for t in tids:
        try:
            with open("/proc/%d/task/%s/schedstat" % (p.pid, t)) as f:
                cpu[int(t)] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            try:  # no schedstats in this kernel: user + system clock ticks
                with open("/proc/%d/task/%s/stat" % (p.pid, t)) as f:
                    x = f.read().rsplit(")", 1)[1].split()
                cpu[int(t)] = (int(x[11]) + int(x[12])) * 10**9 // os.sysconf("SC_CLK_TCK")
            except (OSError, ValueError, IndexError):
                continue
    time.sleep(0.002)
if p.wait():
    sys.exit("threads.py: %s failed" % " ".join(sys.argv[1:]))
main = cpu.get(p.pid, 0) / 1e9
other = sum(v for t, v in cpu.items() if t != p.pid) / 1e9
s = main / (main + other) if main + other else 1.0
print("main_cpu_s=%.3f other_cpu_s=%.3f serial=%.2f amdahl_2=%.2f"
      % (main, other, s, 1 / (s + (1 - s) / 2)))
