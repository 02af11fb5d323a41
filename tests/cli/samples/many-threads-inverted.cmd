tracetool samples --inverted --weight samples --min-percent 0 --top 3 --thread worker-2 --thread worker-5 --thread worker-8 --thread worker-9 --thread worker-21 perf-many-threads.txt
