tracetool report --threads point ios-array.json
