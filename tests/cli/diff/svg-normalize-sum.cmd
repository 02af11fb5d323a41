tracetool diff --format svg --script none --root none --normalize --diff-widths sum flame-diff-base.folded flame-diff-new.folded
