tracetool samples --format json --frame-identity address --jobs 3 perf-chunks.txt
