tracetool report --symbols ios-store --group --format csv ios-symbolicated.json ios-lag-2001.json 2>/dev/null
