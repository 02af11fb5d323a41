tracetool report --format json ios-reals.json | grep -o "\"user\":{[^}]*}"
