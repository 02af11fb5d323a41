for e in cpu-clock page-faults; do tracetool export --format speedscope --weight period --event $e perf-two-events.txt | grep -o "\"type\":\"sampled\",\"name\":\"[^\"]*\",\"unit\":\"[a-z]*\""; done
