tracetool report --format csv ../../samples/ios-lag.json 2>/dev/null | head -6
