tracetool report --format jsonl report-escapes.jsonl
