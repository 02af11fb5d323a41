#!/usr/bin/env python3
"""Differential test: random method-beat buffers (all the shapes of method-beat.md section 5:
nesting, missing exits, stray exits, nested dispatch, zero slots, lenient slices, times going
backwards, huge end times) through `tracetool beat --format matrix` with random options,
compared byte for byte with the spec-literal reference matrix_ref.py.
usage: difftest.py [--count N] [--seed S] [--tracetool PATH]"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matrix_ref  # noqa: E402

D = matrix_ref.DISPATCH


def enc(entry, mid, t):
    return ((1 if entry else 0) << 63) | ((mid & 0xFFFFF) << 43) | (t & 0x7FFFFFFFFFF)


def gen(rng):
    words = []
    t = rng.randint(0, 5000)
    stack = []
    n = rng.randint(0, 120)
    ids = list(range(1, rng.choice([3, 6, 12, 40]) + 1))
    if rng.random() < 0.3:
        words.append(enc(False, rng.choice(ids), t))
    for _ in range(n):
        r = rng.random()
        t += rng.choice([0, 0, 1, 5, 5, 10, 20, 100, 700, 5000])
        if rng.random() < 0.03:
            t = max(0, t - rng.randint(1, 50))
        if r < 0.12 or (not stack and r < 0.5):
            words.append(enc(True, D, t))
            stack.append(D)
        elif r < 0.55:
            m = rng.choice(ids)
            words.append(enc(True, m, t))
            stack.append(m)
        elif r < 0.9 and stack:
            if rng.random() < 0.1 and len(stack) > 1:
                stack.pop()  # exception: skip this exit
            m = stack.pop()
            words.append(enc(False, m, t))
        elif r < 0.95:
            words.append(enc(False, rng.choice(ids + [99]), t))  # stray
        else:
            words.append(0)
    return words


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tracetool", default="tracetool")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for i in range(a.count):
            words = gen(rng)
            strict = rng.random() < 0.6
            opts = ["--strict" if strict else "--lenient"]
            end = None
            if rng.random() < 0.6:
                end = rng.choice([rng.randint(0, 20000), 5000000000000, -5, 2**62])
                opts += ["--end-ms", str(end)]
            base = rng.choice([0, 0, 1000, -300])
            opts += ["--base-ms", str(base)]
            cost = rng.choice([0, 700, 5000, 123456789])
            opts += ["--cost", str(cost)]
            trim_to = rng.choice([30, 30, 0, 5, 1])
            opts += ["--trim", str(trim_to)]
            path = os.path.join(d, "b%d.txt" % i)
            with open(path, "w") as f:
                for w in words:
                    # mix the three text forms
                    k = rng.random()
                    if k < 0.4:
                        f.write("%d\n" % (w - (1 << 64) if w >= (1 << 63) else w))
                    elif k < 0.7:
                        f.write("%d\n" % w)
                    else:
                        f.write("0x%x\n" % w)
            want = matrix_ref.matrix_json(words, strict, end, base, cost, trim_to)
            p = subprocess.run([a.tracetool, "beat", "--format", "matrix", "--buffer-format",
                                "text"] + opts + [path], capture_output=True, text=True)
            got = p.stdout.rstrip("\n")
            if p.returncode != 0 or got != want:
                bad += 1
                if bad <= 3:
                    print("MISMATCH case %d opts %s\n  want %s\n  got  %s\n  rc %d %s" %
                          (i, " ".join(opts), want, got, p.returncode, p.stderr.strip()))
                    print("  words " + " ".join("%016x" % w for w in words))
    print("difftest: %d cases, %d agree, %d differ" % (a.count, a.count - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
