tracetool flamegraph --format tsv --app-package com.example simpleperf-jit.txt
