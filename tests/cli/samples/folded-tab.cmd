tracetool samples --format json folded-tab.folded | grep -o '"overall":{"samples":[0-9]*'; tracetool export --format folded folded-tab.folded
