tracetool report --group --skip-frame 'MyApp\+0x40(14|18)$' ios-array.json ios-lag-2001.json
