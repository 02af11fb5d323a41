gen_frames --format framestats --scenes 2 --frames 20000 --seed 3 > "$TT_TMP/long.txt" && SOURCE_DATE_EPOCH=1700000000 tracetool analyze -o "$TT_TMP/l.db" "$TT_TMP/long.txt" > /dev/null && tracetool html --script none -o "$TT_TMP/l.html" "$TT_TMP/l.db" && python3 ../check_html.py "$TT_TMP/l.html" && echo "stored windows (series, windows, frames, lowest fps):" && tracetool query --format csv "$TT_TMP/l.db" "select case when scene = '*' then 'all scenes' else scene end, count(*), sum(frames), round(min(fps), 2) from scene_frame_stats where ts is not null group by scene order by scene = '*' desc, scene" && echo "the fps-over-time table (series, rows, windows, frames, lowest fps, most windows in a row):" && python3 ../html_section.py "$TT_TMP/l.html" frames | python3 -c '
import sys
rows, on = {}, False
for line in sys.stdin:
    f = line.rstrip("\n").split(" | ")
    if f == ["series", "rank", "start_ms", "dur_ms", "frames", "fps", "windows"]:
        on = True
        continue
    if on and len(f) != 7:
        break
    if on:
        r = rows.setdefault(f[0], [0, 0, 0, 1e9, 0])
        r[0] += 1; r[1] += int(f[6]); r[2] += int(f[4]); r[3] = min(r[3], float(f[5])); r[4] = max(r[4], int(f[6]))
for k, r in rows.items():
    print("%s,%d,%d,%d,%g,%d" % (k, r[0], r[1], r[2], r[3], r[4]))
'
