gen_frames --scenes 3 --frames 400 --seed 9 --messages --pause > $TT_TMP/r.jsonl && tracetool frames --model matrix-c --format jsonl $TT_TMP/r.jsonl
