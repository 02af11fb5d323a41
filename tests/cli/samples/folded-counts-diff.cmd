tracetool export --format folded folded-counts-diff.folded
