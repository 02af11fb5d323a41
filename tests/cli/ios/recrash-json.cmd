tracetool report --format json ios-recrash.json | grep -o "\"tt\":{.*\"recrash_id\":\"[^\"]*\""
