tracetool report ios-lag-2001.json
