tracetool report report-bad-json.jsonl
