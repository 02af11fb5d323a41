#!/usr/bin/env python3
"""Generates the iOS bench corpus (issue 13 "Speed", spec/ios.md I10): N Matrix lag dumps
(KSCrash standard reports, dump_type 2001, compact JSON lines as KSCrash writes them) with
IMAGES binary images each (the app first, then system images) and FRAMES frames each, every
frame in the app image whose dSYM is tests/data/macho/app.dSYM. One dump in ten carries
register values above 2^63 - 1 (spec/ios.md 2.2). Also writes the lookup addresses (link-time
vmaddr after the 4.3 return-address adjustment) one per line, for llvm-symbolizer.
Usage: gen_ios_dumps.py OUT.jsonl OUT.addrs [N] [IMAGES] [FRAMES]"""
import json, random, sys

out, addrs = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
n_images = int(sys.argv[4]) if len(sys.argv) > 4 else 300
n_frames = int(sys.argv[5]) if len(sys.argv) > 5 else 100
rnd = random.Random(13)
APP_UUID = "4C4C44AF-5555-3144-A1BC-C437781A73D8"  # tests/data/macho/app.dSYM
VMADDR, TEXT = 0x100000000, (0x100004000, 0x10000412C)  # __TEXT vmaddr, __text range


def uuid():
    h = "%032X" % rnd.getrandbits(128)
    return "-".join((h[:8], h[8:12], h[12:16], h[16:20], h[20:]))


def images(app_addr):
    ims = [{"image_addr": app_addr, "image_vmaddr": VMADDR, "image_size": 0x10000,
            "name": "/private/var/containers/Bundle/Application/6C1E0D2A-1111-4222-8333-"
                    "944455556666/MyApp.app/MyApp", "uuid": APP_UUID,
            "cpu_type": 16777228, "cpu_subtype": 0, "major_version": 0,
            "minor_version": 0, "revision_version": 0}]
    base = 0x180000000
    for i in range(n_images - 1):
        size = 0x4000 * rnd.randint(4, 400)
        kind = rnd.choice(("Frameworks", "PrivateFrameworks"))
        name = "Sys%dKit" % i
        ims.append({"image_addr": base, "image_vmaddr": base, "image_size": size,
                    "name": "/System/Library/%s/%s.framework/%s" % (kind, name, name),
                    "uuid": uuid(), "cpu_type": 16777228, "cpu_subtype": -2147483646,
                    "major_version": 0, "minor_version": 0, "revision_version": 0})
        base += size + 0x4000
    rnd.shuffle(ims)
    return ims


def main():
    with open(out, "w") as f, open(addrs, "w") as a:
        for d in range(n):
            slide = 0x4000 * rnd.randint(1, 0x3FFF)
            app = VMADDR + slide
            counts, left = [], n_frames
            for k in (20, 40):  # point stack, main thread, the rest in small threads
                counts.append(k)
                left -= k
            while left > 0:
                counts.append(min(left, 10))
                left -= counts[-1]
            threads = []
            for t, c in enumerate(counts):
                contents = []
                for i in range(c):
                    v = rnd.randrange(TEXT[0], TEXT[1]) & ~3
                    fr = {"instruction_addr": v + slide}
                    if t == 0:
                        fr["repeat_count"] = rnd.randint(1, 20)
                    contents.append(fr)
                    a.write("0x%x\n" % (v if i == 0 else v - 1))
                th = {"backtrace": {"contents": contents, "skipped": 0},
                      "crashed": t == 2, "current_thread": t == 2, "index": max(t - 1, 0)}
                if t == 0:
                    th["name"] = "HandledThread"
                elif t == 1:
                    th["dispatch_queue"] = "com.apple.main-thread"
                if t == 2:
                    big = d % 10 == 0
                    th["registers"] = {"basic": {"x%d" % r: (rnd.getrandbits(64) if big and
                                                             r == 3 else rnd.getrandbits(40))
                                                 for r in range(29)}}
                threads.append(th)
            rep = {"report": {"id": "5B0C1A2B-0000-4000-8000-%012d" % d, "process_name": "MyApp",
                              "type": "standard", "version": "3.2.0",
                              "timestamp": 1709374831 + d},
                   "binary_images": images(app),
                   "system": {"system_name": "iOS", "system_version": "16.3",
                              "machine": "iPhone13,2", "cpu_arch": "arm64",
                              "CFBundleExecutable": "MyApp", "CFBundleName": "MyApp",
                              "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
                              "app_uuid": APP_UUID, "process_id": 4242},
                   "crash": {"error": {"type": "user", "reason": "main thread blocked",
                                       "user_reported": {"name": "MainThreadBlock",
                                                         "dump_type": 2001,
                                                         "suspend_all_threads": True}},
                             "threads": threads}}
            f.write(json.dumps(rep, separators=(",", ":")) + "\n")


main()
