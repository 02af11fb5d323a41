gen_frames --format framestats --scenes 3 --frames 1000 --seed 9 > $TT_TMP/r.txt && tracetool frames --model matrix-b --matrix-b-path frame-metrics --format csv $TT_TMP/r.txt
