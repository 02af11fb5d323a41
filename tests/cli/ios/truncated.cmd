tracetool report ios-truncated.json
