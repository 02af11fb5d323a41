tracetool report -m report-mapping.txt report-missing.jsonl
