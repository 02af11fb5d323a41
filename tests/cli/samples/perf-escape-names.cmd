tracetool samples perf-escape-names.txt | sed -n "5,10p"; tracetool export --format folded perf-escape-names.txt
