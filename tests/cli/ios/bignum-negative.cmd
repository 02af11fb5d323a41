tracetool report --format json ios-bignum-neg.json 2>/dev/null | grep -o "\"user\":{[^}]*}\|\"basic\":{[^}]*}"
