tracetool diff --format svg --script none --root none --diff-color total flame-diff-base.folded flame-diff-new.folded
