tracetool report --format jsonl report-anr-memory.jsonl; tracetool report report-anr-memory.jsonl
