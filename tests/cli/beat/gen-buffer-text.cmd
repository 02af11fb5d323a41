gen_beat buffer --records 12 --seed 5 --format text --text-form mixed
