tracetool startup --beat beat-v1.txt --base-ms -9223372036854775808 ../../samples/startup-events.jsonl
