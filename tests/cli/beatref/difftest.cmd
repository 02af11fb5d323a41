python3 ../ref/difftest.py --count 300 --seed 7
