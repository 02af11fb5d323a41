tracetool export --format chrome ../../samples/sampling.bin 2> /dev/null | grep -e '"ph":"[sf]"' -e '"tid":30657,"ts"'
