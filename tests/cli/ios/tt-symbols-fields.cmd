# report --format json: each frame's tt_symbols is the Symbol[] of symbolicate --format json (ios.md 9.2, symbolication.md 8.2: same field names, in the same order, Discriminator, StartFileName, StartLine and SymbolName included), compared with symbolicate -e macho/app -C at the frame's lookup address (an inline chain, ObjC, C++)
tracetool report --format json --dsym macho/app.dSYM ios-dsym-bundle.json 2>/dev/null > "$TT_TMP/r.json"; python3 -c '
import json, subprocess, sys
frames = []
def walk(v):
    if isinstance(v, dict):
        m = v.get("tt_module")
        if m and m["debug_file"]:
            frames.append((m["lookup"], v["tt_symbols"]))
        for x in v.values():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
walk(json.load(open(sys.argv[1])))
out = subprocess.run(["tracetool", "symbolicate", "-e", "macho/app", "-C", "--format", "json"] + [a for a, _ in frames], capture_output=True, text=True).stdout
for (a, syms), res in zip(frames, json.loads(out)):
    same = [list(s.items()) for s in syms] == [list(s.items()) for s in res["Symbol"]]
    print(a, "same as symbolicate" if same else "DIFFERENT", " <- ".join(s["FunctionName"] for s in syms))
print("fields:", ", ".join(frames[0][1][0]))
' "$TT_TMP/r.json"
