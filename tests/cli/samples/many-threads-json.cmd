tracetool samples --format json --weight wall --top 2 --mark-gaps --thread worker-3 --thread 20011 --thread worker-17 perf-many-threads.txt
