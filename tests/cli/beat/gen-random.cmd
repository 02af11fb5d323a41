cd $TT_TMP && gen_beat mapping -n 500 --seed 3 -o gm.txt && gen_beat buffer --records 3000 --ids 500 --seed 3 -o gb.bin && tracetool beat -m gm.txt gb.bin
