tracetool report report-bad-number.jsonl
