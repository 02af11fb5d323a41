#!/usr/bin/env python3
"""Writes samples/reports.{jsonl,log,json}: Matrix issue reports of every tag and detail
(method-beat.md section 7) for the sample app com.northwind.market. Every `stack`/`stackKey`/`cost` comes
from `tracetool beat --format matrix` on a hand-made method-beat slice, so the reports are
exactly what Matrix computes. Method ids are 1..400 and 1048574 (samples/methodMapping.txt).

usage: python3 scripts/gen-sample-reports.py [TRACETOOL]   (run from the repository root)
"""
import calendar
import json
import os
import struct
import subprocess
import sys
import tempfile

D = 1048574
TRACETOOL = sys.argv[1] if len(sys.argv) > 1 else "./tracetool"


def enc(entry, mid, t):
    w = (1 << 63 if entry else 0) | (mid << 43) | t
    return w - (1 << 64) if w >= 1 << 63 else w  # as Java prints a long


def calls(node, out):
    """node = (id, begin_ms, end_ms or None for 'still open'/'exit skipped', [children])."""
    mid, t0, t1, kids = node
    out.append(enc(1, mid, t0))
    for k in kids:
        calls(k, out)
    if t1 is not None:
        out.append(enc(0, mid, t1))


def matrix(roots, *opts, tail=()):
    words = []
    for r in roots:
        calls(r, words)
    words += list(tail)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(str(w) for w in words) + "\n")
        path = f.name
    try:
        out = subprocess.run([TRACETOOL, "beat", "--format", "matrix", *opts, path],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return json.loads(out)


def java_float(x):
    """A Java float widened to double, as org.json prints it (7.6)."""
    f = struct.unpack("f", struct.pack("f", x))[0]
    return int(f) if f == int(f) else f


DEVICE_HIGH = [("machine", "HIGH"), ("cpu_app", 0), ("mem", 7823671296), ("mem_free", 3120876)]
DEVICE_MID = [("machine", "MIDDLE"), ("cpu_app", 0), ("mem", 3967123456), ("mem_free", 1180342)]
PROC = "com.northwind.market"


def tail(tag, time_ms, process=PROC):
    return [("tag", tag), ("process", process), ("time", time_ms)]


# Ids name methods of the sample app com.northwind.market (samples/methodMapping.txt).
# ---- evil method (NORMAL), v2.0.8 with usage: MainActivity.onCreate over one dispatch ----
normal_208 = matrix([(D, 0, 1045, [
    (31, 0, 1040, [
        (21, 0, 120, [(26, 0, 115, [(325, 5, 110, [(327, 10, 105, [])])])]),
        (36, 120, 345, [(59, 125, 250, []), (38, 250, 340, [(91, 255, 270, [])])]),
        (39, 345, 1035, [
            (50, 345, 1030, [
                (147, 350, 1025, [
                    (148, 350, 520, [(182, 355, 515, [])]),
                    (150, 520, 1020, [(309, 525, 680, []), (309, 680, 840, []),
                                      (309, 840, 1015, [])])])])])])])], "--cost", "1045")

# ---- evil method (NORMAL), HEAD: no usage; add to cart opens the database ----
normal_head = matrix([(D, 0, 765, [
    (117, 0, 760, [
        (131, 0, 755, [
            (172, 5, 750, [
                (174, 5, 745, [
                    (217, 5, 740, [(195, 10, 690, [(196, 10, 685, [(200, 15, 200, [])])])])])]),
            ])])])], "--cost", "765")

# ---- evil method (NORMAL), HEAD, the same blamed method from another screen ----
normal_cart = matrix([(D, 0, 905, [
    (125, 0, 900, [
        (130, 0, 880, [(171, 0, 875, [(216, 5, 870, [(195, 5, 860, [(196, 5, 855, [])])])])]),
        (128, 880, 895, [(234, 880, 890, [])])])])], "--cost", "905")

# ---- ANR: the 5 s check drains the frames still open (strict, end time, cost 5000) ----
anr = matrix([(D, 20000, None, [
    (33, 20000, None, [
        (23, 20000, 20005, []),
        (50, 20005, None, [
            (147, 20005, None, [(154, 20005, 20010, []),
                                (149, 20010, None, [(249, 20010, None, [
                                    (240, 20015, None, [(246, 20015, 20020, [])])])])])])])])],
    "--end-ms", "25005", "--cost", "5000")

# ---- startup over threshold: lenient slice from the first record, cost = cold startup ----
startup_cost = 11230
startup = matrix([
    (2, 0, 20, []),
    (3, 20, 9050, [
        (4, 25, 310, [(295, 30, 300, [])]),
        (5, 310, 1425, [(14, 315, 1420, [(244, 320, 1415, [(414, 325, 1400, [])])])]),
        (6, 1425, 1600, [(262, 1430, 1595, [])]),
        (7, 1600, 9045, [(283, 1605, 9040, [(288, 1610, 8900, []), (290, 8900, 9035, [])])])]),
    (143, 9100, 9400, [(144, 9105, 9395, [(145, 9110, 9390, [])])]),
    (31, 9450, 10950, [(21, 9455, 9600, []), (36, 9600, 10940, [(59, 9605, 10100, []),
                                                                 (38, 10100, 10935, [])])])],
    "--lenient", "--cost", str(startup_cost))

# Java thread stacks as captured at run time: obfuscated by R8 (samples/mapping.txt).
anr_thread = ("|*\t\tat java.net.SocketInputStream.socketRead0(Native Method)\n"
              "|*\t\tat okhttp3.internal.connection.RealCall.execute(RealCall.kt:154)\n"
              "|*\t\tat m.a:a(3)\n|*\t\tat m.c:a(5)\n|*\t\tat i.a:c(2)\n|*\t\tat i.a:a(4)\n"
              "|*\t\tat b.c:a(2)\n"
              "|*\t\tat com.northwind.market.ui.main.MainActivity:onResume(2)\n")
lag_thread = ("java.net.SocketInputStream.socketRead0(Native Method)\n"
              "java.net.SocketInputStream.read(SocketInputStream.java:176)\n"
              "okhttp3.internal.connection.RealCall.execute(RealCall.kt:154)\n"
              "m.a.a(SourceFile:3)\n"
              "m.c.a(SourceFile:5)\n"
              "i.a.c(SourceFile:2)\n"
              "i.a.a(SourceFile:4)\n"
              "b.c.a(SourceFile:2)\n"
              "com.northwind.market.ui.main.MainActivity.onResume(SourceFile:2)\n"
              "android.app.Activity.performResume(Activity.java:8135)\n"
              "android.os.Looper.loop(Looper.java:223)\n"
              "android.app.ActivityThread.main(ActivityThread.java:7656)\n")
sig_thread = ("android.os.MessageQueue.nativePollOnce(Native Method)\n"
              "android.os.MessageQueue.next(MessageQueue.java:335)\n"
              "android.os.Looper.loop(Looper.java:183)\n"
              "android.app.ActivityThread.main(ActivityThread.java:7656)\n")

T0 = calendar.timegm((2026, 11, 23, 5, 30, 0)) * 1000  # epoch ms
reports = [
    DEVICE_MID + [("detail", "NORMAL"), ("cost", normal_208["cost"]), ("usage", "95.65%"),
                  ("scene", "com.northwind.market.ui.main.MainActivity"), ("stack", normal_208["stack"]),
                  ("stackKey", normal_208["stackKey"])] + tail("Trace_EvilMethod", T0 + 1312),
    DEVICE_HIGH + [("detail", "NORMAL"), ("cost", normal_head["cost"]),
                   ("scene", "com.northwind.market.ui.product.ProductDetailActivity"), ("stack", normal_head["stack"]),
                   ("stackKey", normal_head["stackKey"])] + tail("Trace_EvilMethod", T0 + 64021),
    DEVICE_HIGH + [("detail", "NORMAL"), ("cost", normal_cart["cost"]),
                   ("scene", "com.northwind.market.ui.cart.CartActivity"), ("stack", normal_cart["stack"]),
                   ("stackKey", normal_cart["stackKey"])] + tail("Trace_EvilMethod", T0 + 98410),
    DEVICE_HIGH + [("detail", "ANR"), ("cost", anr["cost"]), ("stackKey", anr["stackKey"]),
                   ("scene", "com.northwind.market.ui.main.MainActivity"), ("stack", anr["stack"]),
                   ("threadStack", anr_thread), ("processPriority", 10), ("processNice", -10),
                   ("isProcessForeground", True),
                   ("memory", {"dalvik_heap": 41236, "native_heap": 88412, "vm_size": 6981244})]
    + tail("Trace_EvilMethod", T0 + 125005),
    DEVICE_HIGH + [("detail", "LAG"), ("scene", "com.northwind.market.ui.main.MainActivity"),
                   ("threadStack", lag_thread), ("isProcessForeground", True)]
    + tail("Trace_EvilMethod", T0 + 122010),
    DEVICE_HIGH + [("detail", "SIGNAL_ANR"), ("threadStack", sig_thread),
                   ("scene", "com.northwind.market.ui.main.MainActivity"), ("isProcessForeground", True)]
    + tail("Trace_EvilMethod", T0 + 126200),
    DEVICE_MID + [("detail", "STARTUP"), ("cost", startup["cost"]), ("stack", startup["stack"]),
                  ("stackKey", startup["stackKey"]), ("subType", 1)]
    + tail("Trace_EvilMethod", T0 - 3600000 + 11420),
    DEVICE_MID + [("application_create", 9050), ("application_create_scene", 159),
                  ("first_activity_create", 10980), ("startup_duration", startup_cost),
                  ("is_warm_start_up", False)] + tail("Trace_StartUp", T0 - 3600000 + 11415),
    DEVICE_HIGH + [("application_create", 0), ("application_create_scene", 159),
                   ("first_activity_create", 0), ("startup_duration", 900),
                   ("is_warm_start_up", True)] + tail("Trace_StartUp", T0 + 305877),
    # FPS generation a (v0.6.5): levels FROZEN..BEST, dropTaskFrameSum always 0
    DEVICE_MID + [("scene", "com.northwind.market.ui.main.MainActivity"),
                  ("dropLevel", {"DROPPED_FROZEN": 0, "DROPPED_HIGH": 2, "DROPPED_MIDDLE": 5,
                                 "DROPPED_NORMAL": 21, "DROPPED_BEST": 553}),
                  ("dropSum", {"DROPPED_FROZEN": 0, "DROPPED_HIGH": 31, "DROPPED_MIDDLE": 38,
                               "DROPPED_NORMAL": 67, "DROPPED_BEST": 88}),
                  ("fps", java_float(1000.0 * 581 / 10466)), ("dropTaskFrameSum", 0)]
    + tail("Trace_FPS", T0 + 20480),
    # FPS generation b (v0.8-v2.0.8); a fragment scene name with '/'
    DEVICE_HIGH + [("scene", "home/feed"),
                   ("dropLevel", {"DROPPED_FROZEN": 1, "DROPPED_HIGH": 3, "DROPPED_MIDDLE": 9,
                                  "DROPPED_NORMAL": 40, "DROPPED_BEST": 487}),
                   ("dropSum", {"DROPPED_FROZEN": 44, "DROPPED_HIGH": 60, "DROPPED_MIDDLE": 71,
                                "DROPPED_NORMAL": 128, "DROPPED_BEST": 97}),
                   ("fps", java_float(1000.0 * 540 / 10212))] + tail("Trace_FPS", T0 + 45210),
    # FPS generation c (v2.1.0 / HEAD): levels BEST..FROZEN, mean durations in ns
    DEVICE_HIGH + [("scene", "com.northwind.market.ui.product.ProductDetailActivity"),
                   ("dropLevel", {"DROPPED_BEST": 574, "DROPPED_NORMAL": 17, "DROPPED_MIDDLE": 4,
                                  "DROPPED_HIGH": 1, "DROPPED_FROZEN": 0}),
                   ("dropSum", {"DROPPED_BEST": 9, "DROPPED_NORMAL": 39, "DROPPED_MIDDLE": 25,
                                "DROPPED_HIGH": 13, "DROPPED_FROZEN": 0}),
                   ("fps", java_float(1.0e9 / 17520551.0)),
                   ("UNKNOWN_DELAY_DURATION", 512344), ("INPUT_HANDLING_DURATION", 48211),
                   ("ANIMATION_DURATION", 301877), ("LAYOUT_MEASURE_DURATION", 2100345),
                   ("DRAW_DURATION", 3012998), ("SYNC_DURATION", 701223),
                   ("COMMAND_ISSUE_DURATION", 2877410), ("SWAP_BUFFERS_DURATION", 1203554),
                   ("TOTAL_DURATION", 17520551), ("GPU_DURATION", 4410230), ("DROP_COUNT", 0),
                   ("REFRESH_RATE", 60)] + tail("Trace_FPS", T0 + 75644),
]


def android(obj, indent=None):
    """org.json style: insertion order, '/' escaped (7.6)."""
    sep = (",", ":") if indent is None else (",", ": ")
    return json.dumps(obj, ensure_ascii=False, separators=sep, indent=indent).replace("/", "\\/")


objs = [dict(r) for r in reports]
# HEAD ANR issues carry the key "0" (8.1 item 7); the others none
keys = ["0" if o.get("detail") == "ANR" else "null" for o in objs]
PREFIX = ["11-23 05:30:{:02d}.{:03d}  8812  8812 I Matrix.DefaultPluginListener: report issue content: ",
          "I/Matrix.DefaultPluginListener( 8812): report issue content: "]
with open("samples/reports.jsonl", "w") as f:
    for o in objs:
        f.write(android(o) + "\n")
with open("samples/reports.json", "w") as f:
    f.write(android(objs, indent=2) + "\n")
with open("samples/reports.log", "w") as f:
    f.write("--------- beginning of main\n")
    noise = ["I ActivityTaskManager: Displayed com.northwind.market/.ui.main.MainActivity: +11s230ms",
             "D Matrix.LooperAnrTracer: [onDispatchEnd] ANR task removed",
             "W Choreographer: Skipped 61 frames!  The application may be doing too much work "
             "on its main thread.",
             "I Matrix.FrameTracer: [report] FPS:54.2 TOTAL:17.5ms"]
    for i, o in enumerate(objs):
        f.write("11-23 05:30:{:02d}.{:03d}  8812  8812 {}\n".format(i, 100 + i,
                                                                noise[i % len(noise)]))
        p = PREFIX[i % 2].format(i, 120 + i) if i % 2 == 0 else PREFIX[1]
        f.write(p + "tag[{}]type[0];key[{}];content[{}]\n".format(o["tag"], keys[i], android(o)))
