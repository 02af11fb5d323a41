tracetool samples --format json folded-diff.folded
