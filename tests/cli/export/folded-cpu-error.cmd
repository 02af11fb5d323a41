tracetool export --format folded --weight cpu ../../samples/stacks.folded
