#!/usr/bin/env python3
"""CPU time of commands, run interleaved: prints one line per command,
'<label> cpu_ms=<median> min_ms=<min> peak_rss_mib=<max>', CPU = user + sys of the process
(medians of interleaved runs: the machine may be shared, wall time is noise there).
Usage: bench/cpu.py N LABEL=CMD [LABEL=CMD...]  (CMD is split as the shell splits words;
a word <FILE is its standard input; stdout goes to /dev/null). Peak RSS comes from one more
run under GNU time when it is installed (it forks from a small image), else from the timed
runs (then an upper bound: Linux carries this Python's high-water mark into the child)."""
import os, shlex, statistics, subprocess, sys, tempfile


def run(argv, stdin):
    with open(os.devnull, "wb") as out, open(stdin or os.devnull, "rb") as inp:
        p = subprocess.Popen(argv, stdout=out, stdin=inp)
        _, status, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status):
        sys.exit("cpu.py: %s failed" % " ".join(argv))
    return ru


n = int(sys.argv[1])
cmds = []
for a in sys.argv[2:]:
    label, cmd = a.split("=", 1)
    words = shlex.split(cmd)
    stdin = [w[1:] for w in words if w.startswith("<")]
    cmds.append((label, [w for w in words if not w.startswith("<")], stdin[0] if stdin else None))
gnu_time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
cpu = {l: [] for l, _, _ in cmds}
rss = {l: 0 for l, _, _ in cmds}
for _ in range(n):
    for label, argv, stdin in cmds:
        ru = run(argv, stdin)
        cpu[label].append(ru.ru_utime + ru.ru_stime)
        rss[label] = max(rss[label], ru.ru_maxrss)
for label, argv, stdin in cmds:
    mark = ">="
    if gnu_time:
        with tempfile.NamedTemporaryFile("r") as tf:
            run([gnu_time, "-f", "%M", "-o", tf.name] + argv, stdin)
            lines = [l for l in tf.read().split("\n") if l.strip().isdigit()]
            if lines:
                rss[label], mark = int(lines[-1]), ""
    v = cpu[label]
    print("%s cpu_ms=%.1f min_ms=%.1f peak_rss_mib=%s%.1f" %
          (label, 1000 * statistics.median(v), 1000 * min(v), mark, rss[label] / 1024))
