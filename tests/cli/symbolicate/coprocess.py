# A co-process (addr2line style): each address written to tracetool's standard input (a
# pipe) is answered before the next one is written, while stdin stays open and stdout is a
# pipe; raw addresses (text, jsonl) and a backtrace. Prints the answers, or TIMEOUT.
import os, select, subprocess, sys

def talk(args, lines, want):
    p = subprocess.Popen(["tracetool", "symbolicate"] + args, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    for line in lines:
        p.stdin.write(line.encode() + b"\n")
        p.stdin.flush()
        got = b""
        while got.count(b"\n") < want:
            r, _, _ = select.select([p.stdout], [], [], 10)
            if not r:
                print("TIMEOUT waiting for the answer to", line)
                p.kill()
                return
            chunk = os.read(p.stdout.fileno(), 65536)
            if not chunk:
                break
            got += chunk
        print(got.decode().rstrip("\n"))
    p.stdin.close()
    p.wait()

exe, addrs, bid = sys.argv[1], sys.argv[2:4], sys.argv[4]
talk(["-e", exe, "-f"], addrs, 2)
talk(["-e", exe, "--format", "jsonl"], addrs, 1)
talk(["-e", exe], addrs, 1)
talk(["--symbols", "store"],
     ["    #00 pc %016x  /system/bin/g5 (BuildId: %s)" % (int(a, 16), bid) for a in addrs], 2)
