tracetool report --format jsonl report-depth-extremes.jsonl; tracetool report report-depth-extremes.jsonl | grep -e missing -e "<=="
