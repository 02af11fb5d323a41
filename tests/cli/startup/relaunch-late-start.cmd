tracetool startup --format csv startup/relaunch-nostart.jsonl startup/relaunch-nostart-pid.jsonl startup/late-process-start.jsonl
