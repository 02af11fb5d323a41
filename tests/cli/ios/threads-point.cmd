tracetool report --threads point --interval-ms 16 ios-lag-2001.json
