tracetool report --threads all ios-lag-2001.json
