tracetool report --symbols ios-store --no-adjust --threads point ios-symbolicated.json 2>/dev/null
