tracetool samples --weight wall ../../samples/stacks.folded
