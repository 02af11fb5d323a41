tracetool report report-bad-stack.jsonl
