for s in 1 2 3; do gen_frames --format jsonl --scenes 2 --frames $((20 * s)) --seed $s > "$TT_TMP/t$s.jsonl" || exit; done; SOURCE_DATE_EPOCH=1700000000 tracetool analyze -o "$TT_TMP/t.db" "$TT_TMP/t1.jsonl" "$TT_TMP/t2.jsonl" "$TT_TMP/t3.jsonl" > /dev/null && for top in 2 3; do tracetool html --top $top --script none -o "$TT_TMP/t$top.html" "$TT_TMP/t.db" && echo "--top $top: $(python3 ../check_html.py "$TT_TMP/t$top.html")" && python3 ../html_section.py "$TT_TMP/t$top.html" frames | python3 -c '
import sys
on, series = False, []
for line in sys.stdin:
    line = line.rstrip("\n")
    if "FPS over time" in line and line.startswith("[chart:") or line.startswith("fps over time of"):
        print(line)
    f = line.split(" | ")
    if f == ["series", "rank", "start_ms", "dur_ms", "frames", "fps", "windows"]:
        on = True
        continue
    if on and len(f) != 7:
        break
    if on and f[0] not in series:
        series.append(f[0])
print("lines:", ", ".join(series))
'; done
