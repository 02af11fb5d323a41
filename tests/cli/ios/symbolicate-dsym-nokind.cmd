tracetool symbolicate --no-adjust ios-lag-2001.json
