tracetool report --format csv ios-cpu-2003.json
