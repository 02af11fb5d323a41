tracetool report --format jsonl report-big-then-overflow.jsonl
