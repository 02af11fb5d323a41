tracetool startup --format jsonl startup/am-incomplete.txt
