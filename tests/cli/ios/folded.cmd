tracetool report --format folded ios-lag-2001.json ios-custom-2011.json
