tracetool report --group --app-image '/Kit$' ios-custom-2011.json ios-cpu-2003.json
