printf '{"detail":"LAG","scene":"x\\u001b[2J\\u001b[Hfake","threadStack":"at a\\u001b]0;title\\u0007\\n","tag":"Trace_EvilMethod"}\n' > $TT_TMP/esc.json; python3 -c '
import os, pty, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen(["tracetool", "report", sys.argv[1]], stdout=s)
os.close(s)
out = b""
while True:
    try:
        d = os.read(m, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
p.wait()
sys.stdout.write(out.decode().replace("\r\n", "\n"))
print("exit", p.returncode, "raw ESC on the terminal:", b"\x1b" in out)
' $TT_TMP/esc.json | sed "s|$TT_TMP|TMP|"; tracetool report $TT_TMP/esc.json | grep -c "$(printf '\033')" || true
