tracetool report ios-profile.json
