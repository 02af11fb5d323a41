tracetool samples --weight cpu perf-srccode.txt
