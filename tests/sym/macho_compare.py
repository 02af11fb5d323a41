#!/usr/bin/env python3
"""Compares tracetool's JSON symbolication with llvm-symbolizer-14's (spec/ios.md 13).

  macho_compare.py OURS.json ORACLE.json

Both are llvm-symbolizer style JSON (an array of objects, or one object per line). For every
address the whole inline chain must agree: FunctionName, FileName, Line, Column,
Discriminator, StartFileName, StartLine per frame, and StartAddress of the out-of-line frame.
Prints one summary line, or one line per difference; exits 1 on a difference."""
import json
import sys

FIELDS = ("FunctionName", "FileName", "Line", "Column", "Discriminator", "StartFileName",
          "StartLine")


def load(path):
    text = open(path).read().strip()
    if text.startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def main():
    ours, ref = load(sys.argv[1]), load(sys.argv[2])
    if len(ours) != len(ref):
        print("address count differs: %d vs %d" % (len(ours), len(ref)))
        return 1
    bad = frames = 0
    for o, r in zip(ours, ref):
        a = r.get("Address")
        oc, rc = o.get("Symbol", []), r.get("Symbol", [])
        if len(oc) != len(rc):
            print("%s: chain of %d frames, llvm-symbolizer %d" % (a, len(oc), len(rc)))
            bad += 1
            continue
        for i, (of, rf) in enumerate(zip(oc, rc)):
            frames += 1
            keys = FIELDS + (("StartAddress",) if i == len(rc) - 1 else ())
            for k in keys:
                if of.get(k) != rf.get(k):
                    print("%s frame %d: %s %r, llvm-symbolizer %r" % (a, i, k, of.get(k), rf.get(k)))
                    bad += 1
    if bad:
        return 1
    print("%d addresses, %d frames: identical to llvm-symbolizer-14" % (len(ref), frames))
    return 0


if __name__ == "__main__":
    sys.exit(main())
