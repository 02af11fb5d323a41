tracetool export --format folded --kind btrace-ios deep.folded
