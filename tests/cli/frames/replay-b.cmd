gen_frames --scenes 2 --frames 700 --seed 9 --messages --pause > $TT_TMP/r.jsonl && tracetool frames --model matrix-b --format json $TT_TMP/r.jsonl
