tracetool report --symbols ios-store --show-device-names ios-symbolicated.json 2>/dev/null
