tracetool report --group ios-array.json ios-lag-2001.json ios-lines.jsonl ios-cpu-2003.json ios-crash-kscrash.json ios-custom-2011.json
