tracetool diff --format svg --script none --root none flame-diff-base.folded flame-diff-new.folded
