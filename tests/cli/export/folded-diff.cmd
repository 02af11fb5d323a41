tracetool export --format folded folded-diff.folded
