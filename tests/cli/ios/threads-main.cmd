tracetool report --threads main --interval-ms 16 ios-lag-2001.json
