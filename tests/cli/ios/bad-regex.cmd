tracetool report --group --skip-frame '(' ios-lag-2001.json
