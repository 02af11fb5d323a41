tracetool samples --frame-identity address --top 4 perf-address-identity.txt
