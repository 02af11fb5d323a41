gen_frames --scenes 3 --frames 400 --seed 9 --pause > $TT_TMP/r.jsonl && tracetool frames --model matrix-c $TT_TMP/r.jsonl
