tracetool export --format folded folded-tab-diff.folded
