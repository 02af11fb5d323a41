tracetool report --format jsonl report-no-tag.jsonl
