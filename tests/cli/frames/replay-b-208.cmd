gen_frames --scenes 1 --frames 700 --seed 9 > $TT_TMP/r.jsonl && tracetool frames --model matrix-b --matrix-version 2.0.8 --format jsonl $TT_TMP/r.jsonl
