tracetool report --format json ios-bignum.json
