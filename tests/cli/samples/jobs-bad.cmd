tracetool samples --jobs 0 perf-chunks.txt
