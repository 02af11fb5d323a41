tracetool report --format jsonl report-truncated.log
