tracetool report --group --format json ios-array.json ios-lag-2001.json ios-crash-kscrash.json | python3 -m json.tool
