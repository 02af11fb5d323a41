tracetool report ios-no-images.json
