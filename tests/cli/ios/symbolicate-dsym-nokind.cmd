tracetool symbolicate --no-adjust ios-lag-2001.json 2>/dev/null | head -1; tracetool symbolicate --no-adjust ../../samples/tombstone.txt 2>&1; echo "exit $?"
