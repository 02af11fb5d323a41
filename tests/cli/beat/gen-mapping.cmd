gen_beat mapping -n 40 --seed 7
