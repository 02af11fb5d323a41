tracetool report ios-cpu-2003.json
