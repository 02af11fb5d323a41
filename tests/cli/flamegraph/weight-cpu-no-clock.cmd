tracetool flamegraph --weight cpu perf-srccode.txt
