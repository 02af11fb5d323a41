tracetool report -m report-mapping.txt report-v04.jsonl && tracetool report --format jsonl -m report-mapping.txt report-v04.jsonl
