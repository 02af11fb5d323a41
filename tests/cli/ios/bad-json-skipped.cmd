tracetool report ios-bad-element.json ios-bad-line.jsonl
