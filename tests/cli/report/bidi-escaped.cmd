tracetool report report-bidi.jsonl
