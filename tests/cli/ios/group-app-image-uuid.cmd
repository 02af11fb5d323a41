tracetool report --group ios-no-app-uuid.json; tracetool report ios-no-app-uuid.json | grep "^App:"
