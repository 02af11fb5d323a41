tracetool startup --cold-ms soon startup/warm.jsonl
