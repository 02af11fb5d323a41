tracetool export --format speedscope perf-notime.txt
