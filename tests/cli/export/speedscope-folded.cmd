tracetool export --format speedscope --weight period ../../samples/stacks.folded
