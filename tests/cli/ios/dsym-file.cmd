tracetool report --dsym ios-store/libb-md5.so --threads point ios-symbolicated.json 2>/dev/null
