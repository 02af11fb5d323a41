#!/usr/bin/env python3
"""perf script text of a system-wide recording with many threads (bench_samples.sh, the
samples/many-threads goldens): THREADS threads of SAMPLES samples each, every sample one of
STACKS stacks of a shared tree (stack k: a common root, then frames shared by k modulo 8, 64,
512 and 4096, then frames of k alone, then a leaf shared by k modulo 300), so the profile has
about 4.5 * STACKS distinct callsites while each thread touches a few. Times increase across
the file (perf script order), threads interleaved. Deterministic for a given SEED.

usage: gen_perf_threads.py THREADS SAMPLES STACKS SEED OUT
"""
import random
import sys


def stack(k):
    """Frames of stack k, root first."""
    return ["start_thread", "a%d" % (k % 8), "b%d" % (k % 64), "c%d" % (k % 512),
            "d%d" % (k % 4096), "e%d" % k, "g%d" % k, "h%d" % k, "leaf%d" % (k % 300)]


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__.strip().splitlines()[-1])
    nt, ns, nk, seed = (int(x) for x in sys.argv[1:5])
    rnd = random.Random(seed)
    order = [t for t in range(nt) for _ in range(ns)]
    rnd.shuffle(order)
    ts = 1000000  # us
    with open(sys.argv[5], "w") as out:
        for t in order:
            ts += rnd.randint(1, 400)
            k = rnd.randrange(nk)
            period = 250000 + rnd.randrange(3) * 1000
            tid = 20000 + t
            out.write("worker-%d %d/%d %d.%06d: %d cpu-clock:ppp: \n"
                      % (t % 97, 10000 + t % 13, tid, ts // 1000000, ts % 1000000, period))
            for i, f in enumerate(reversed(stack(k))):
                out.write("\t%16x %s+0x%x (/usr/lib/libwork.so)\n" % (0x400000 + 16 * i, f, i))
            out.write("\n")


if __name__ == "__main__":
    main()
