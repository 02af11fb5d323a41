tracetool report --threads some ios-lag-2001.json
