tracetool analyze -o "$TT_TMP/w.db" -m an-map.txt an-v1.bin deep.folded >/dev/null 2>&1 && cp "$TT_TMP/w.db" "$TT_TMP/w0" && cp "$TT_TMP/w.db" "$TT_TMP/v.db" && tracetool query --format csv "$TT_TMP/w.db" "select count(*) > 0 from slice" && tracetool diff "$TT_TMP/w.db" "$TT_TMP/v.db" >/dev/null && tracetool export --format folded "$TT_TMP/w.db" >/dev/null && echo "left after query, diff, export: $(ls "$TT_TMP" | grep -c -- '-wal\|-shm')" && cmp "$TT_TMP/w.db" "$TT_TMP/w0" && echo unchanged && cd "$TT_TMP" && python3 -c '
import os, sqlite3, subprocess
other = sqlite3.connect("w.db")  # another reader keeps the log open
other.execute("select count(*) from slice").fetchone()
subprocess.run(["tracetool", "query", "w.db", "select 1"], stdout=subprocess.DEVNULL, check=True)
print("kept while another connection reads:", os.path.exists("w.db-wal"), os.path.exists("w.db-shm"))
print("the other still reads:", other.execute("select count(*) > 0 from slice").fetchone()[0])
other.close()
print("after it closes:", os.path.exists("w.db-wal"), os.path.exists("w.db-shm"))
'
