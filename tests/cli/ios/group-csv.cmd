tracetool report --group --format csv ios-array.json ios-lag-2001.json ios-crash-kscrash.json
