tracetool report --symbols ios-store --format folded ios-symbolicated.json 2>/dev/null
