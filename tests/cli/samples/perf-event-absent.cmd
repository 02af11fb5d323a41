tracetool samples --event cpu-clock perf-modifiers.txt
