tracetool report ios-custom-2011.json
