tracetool export --format folded folded-counts.folded
